import GStreamer

/// The incoming track of a crossfade, decoded from its start by a pipeline of its own into an appsink, in the
/// caps the outgoing stream has where the two are mixed (docs/crossfade-design.md). It runs without a clock, as
/// fast as it decodes, and stops while `maxWaiting` buffers wait to be taken, so what it holds stays bounded. Not
/// used by the engine yet.
final class IncomingTrack {
    static let maxWaiting = 64
    private let pipeline: Element
    let samples: AppSink

    /// Throws if GStreamer lacks an element of the chain; the URI and caps are set as properties, never parsed
    /// as part of a pipeline description.
    init(uri: String, caps: String) throws {
        GStreamer.initialize()
        pipeline = try Element.pipeline("uridecodebin name=decoder ! audioconvert ! audioresample ! capsfilter name=format"
                                        + " ! appsink name=samples sync=false max-buffers=\(Self.maxWaiting)")
        guard let decoder = pipeline.child(named: "decoder"), let format = pipeline.child(named: "format"),
              let sink = pipeline.child(named: "samples").flatMap(AppSink.init) else {
            throw GStreamerError(domain: .core, code: 0, message: "The incoming track's pipeline lacks its elements")
        }
        decoder.set("uri", uri)
        format.set("caps", caps)
        samples = sink
    }

    /// Starts decoding; the state change completes on GStreamer's threads.
    func start() -> StateChange { pipeline.setState(.playing) }

    /// Ends it: NULL, which waits for its streaming thread to stop (a local decode stops within one buffer).
    func stop() { _ = pipeline.setState(.null) }

    deinit { stop() }
}
