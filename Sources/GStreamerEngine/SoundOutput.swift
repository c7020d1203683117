import GStreamer
import Logging

/// Picks the sink the engine plays into.
public enum SoundOutput {
    /// Silent, but clocked like a sound card, so the position still advances and clients see a playing player.
    public static let fallback = "fakesink sync=true"

    /// What to start when pulsesink (or another sound server's sink) cannot reach its server.
    public static let soundServerHint = "Start PulseAudio or PipeWire"

    /// `requested`, unless it cannot open: then the log says so plainly and the daemon runs on `fallback`.
    /// pulsesink connects to the sound server when it goes to READY and fails there when none is reachable
    /// (docs/platform.md, "GStreamer behaviour": it fails loudly, unlike autoaudiosink); so does tcpclientsink
    /// when nothing listens. `serverHint` tells the user what to start. Asked by the engine's first load, not at
    /// start-up: it runs `gst_init` and maps the sink's plugin.
    /// Upstream: by design (autoaudiosink's fake-element fallback, gstautodetect.c), still in GStreamer 1.29.2.
    static func choose(_ requested: String, log: Logger, serverHint: String) -> String {
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
    /// What to start when nothing listens at `output`'s Snapcast server (`quaverd --output snapcast`): the source
    /// snapserver needs.
    public static func serverHint(for output: SnapcastOutput) -> String {
        "Start snapserver with the source tcp://\(output.host):\(output.port)?name=Quaver&mode=server in snapserver.conf"
    }
}
