import Dispatch
import GStreamer

/// The incoming track of a crossfade, decoded from its start by a pipeline of its own into an appsink, in the
/// caps the outgoing stream has where the two are mixed (docs/ARCHITECTURE.md, "Crossfade"). It runs without a clock, as
/// fast as it decodes, and stops while `maxWaiting` buffers wait to be taken, so what it holds stays bounded.
final class IncomingTrack {
    static let maxWaiting = 64
    private let pipeline: Element
    let samples: AppSink
    /// The equaliser's elements in its chain, given the gains of playbin's (`GStreamerEngine.setEqualizer`).
    let equalizer: EqualizerStage?
    /// Samples taken from the appsink and not mixed yet, and how far they were used (the mixing thread's only).
    private var taken: [UInt8] = []
    private var used = 0

    /// Throws if GStreamer lacks an element of the chain; the URI and caps are set as properties, never parsed
    /// as part of a pipeline description. `levelling` (ours, a `gst-launch` fragment: ReplayGain's `rgvolume`) goes
    /// right after the decoder, then the equaliser with `equalizer`'s gains when given (and the plugin is there).
    init(uri: String, caps: String, levelling: String? = nil, equalizer gains: EqualizerGains? = nil) throws {
        GStreamer.initialize()
        let shaping = [levelling, gains == nil ? nil : EqualizerStage.fragment].compactMap { $0 }
        let levelled = shaping.isEmpty ? "" : "audioconvert ! \(shaping.joined(separator: " ! ")) ! "
        pipeline = try Element.pipeline("uridecodebin name=decoder ! \(levelled)audioconvert ! audioresample ! capsfilter name=format"
                                        + " ! appsink name=samples sync=false max-buffers=\(Self.maxWaiting)")
        guard let decoder = pipeline.child(named: "decoder"), let format = pipeline.child(named: "format"),
              let sink = pipeline.child(named: "samples").flatMap(AppSink.init) else {
            throw GStreamerError(domain: .core, code: 0, message: "The incoming track's pipeline lacks its elements")
        }
        decoder.set("uri", uri)
        format.set("caps", caps)
        samples = sink
        let built = pipeline
        equalizer = gains.map { gains in
            let stage = EqualizerStage()
            stage.set(gains)
            stage.use(built)
            return stage
        }
    }

    /// Starts decoding; the state change completes on GStreamer's threads.
    func start() -> StateChange { pipeline.setState(.playing) }

    /// Ends it: NULL, which waits for its streaming thread to stop (a local decode stops within one buffer).
    func stop() { _ = pipeline.setState(.null) }

    /// Ends it on a thread of its own, for the loop, which waits for nothing: the last reference goes there too.
    func stopLater() {
        let track = StoppedTrack(self)
        Self.stopping.async { track.value.stop() }
    }

    private static let stopping = DispatchQueue(label: "quaver.incoming-track-stop")

    /// Streaming thread (one at a time): adds the samples waiting into `outgoing`'s frames that lie in the overlap,
    /// `outgoing`'s first frame at `time`; returns how many of those frames had no incoming sample ready (they keep
    /// the outgoing track alone, at its gain).
    func mix(into outgoing: UnsafeMutableRawBufferPointer, firstFrameAt time: Double, with mix: OverlapMix) -> Int {
        var frame = mix.firstMixedFrame(of: outgoing, at: time)
        let frames = outgoing.count / mix.bytesPerFrame
        while frame < frames, haveSamples() {
            let rest = UnsafeMutableRawBufferPointer(rebasing: outgoing[(frame * mix.bytesPerFrame)...])
            let mixed = taken.withUnsafeBytes { bytes in
                mix.add(UnsafeRawBufferPointer(rebasing: bytes[used...]), into: rest,
                        firstFrameAt: time + Double(frame) / Double(mix.rate))
            }
            // Less than a frame left (never seen from audioconvert): dropped, or the loop would not advance.
            used = mixed == 0 ? taken.count : used + mixed * mix.bytesPerFrame
            frame += mixed
        }
        return frames - frame
    }

    /// Whether samples are left to mix, taking the next waiting ones when those taken are used up.
    private func haveSamples() -> Bool {
        guard used >= taken.count else { return true }
        guard let next = samples.takeWaiting(), !next.isEmpty else { return false }
        taken = next
        used = 0
        return true
    }

    deinit { stop() }
}

/// An incoming track handed to the thread that stops it, where nothing else uses it.
private final class StoppedTrack: @unchecked Sendable {
    let value: IncomingTrack
    init(_ value: IncomingTrack) { self.value = value }
}
