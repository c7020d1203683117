import GStreamer
import Logging

/// Picks the sink the engine plays into.
public enum SoundOutput {
    /// Silent, but clocked like a sound card, so the position still advances and clients see a playing player.
    public static let fallback = "fakesink sync=true"

    /// `requested`, unless it cannot open: then the log says so plainly and the daemon runs on `fallback`.
    /// pulsesink connects to the sound server when it goes to READY and fails there when none is reachable
    /// (docs/platform.md, "GStreamer behaviour": it fails loudly, unlike autoaudiosink); so does tcpclientsink
    /// when nothing listens. `serverHint` tells the user what to start.
    /// Upstream: by design (autoaudiosink's fake-element fallback, gstautodetect.c), still in GStreamer 1.29.2.
    public static func choose(_ requested: String, log: Logger,
                              serverHint: String = "Start PulseAudio or PipeWire") -> String {
        GStreamer.initialize()
        guard let sink = try? Element.parse(requested) else { return requested }  // the engine reports the parse error
        defer { sink.setState(.null) }
        if sink.setState(.ready) != .failure { return requested }
        log.error("""
            no sound server reachable: "\(requested)" cannot open its output; playing silently into \
            "\(fallback)" (the position still advances). \(serverHint) and restart quaverd.
            """)
        return fallback
    }
}

extension SoundOutput {
    /// The sink for `output`'s Snapcast server (`quaverd --output snapcast`), or `fallback` with a hint naming
    /// the source snapserver needs when nothing listens there.
    public static func choose(_ output: SnapcastOutput, log: Logger) -> String {
        let source = "tcp://\(output.host):\(output.port)?name=Quaver&mode=server"
        return choose(output.sinkDescription, log: log,
                      serverHint: "Start snapserver with the source \(source) in snapserver.conf")
    }
}
