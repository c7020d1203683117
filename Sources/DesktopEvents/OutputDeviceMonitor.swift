import PulseAudio

/// Picks out of the sound server's changes what `OutputRoutePolicy` needs: sinks, the default sink and
/// *our* streams, the playback streams of this process with media.role = music (what the engine's pulsesink
/// sets), so the pause decision follows whatever sink they play on.
///
/// The sound server's own API rather than GStreamer's device monitor: only it reports port changes on
/// one sink (headphones unplugged → speakers). PipeWire serves the same API through pipewire-pulse.
/// Upstream: no issue found; GStreamer's pulse device provider ignores a sink's change events (its ports)
/// as of GStreamer 1.29.2 (main, 2026-08).
struct OutputDeviceMonitor {
    let processID: String

    func event(for change: SoundServerChange) -> SoundServerEvent? {
        switch change {
        case .sink(let sink):
            let port = sink.activePort.map { PortInfo(name: $0.name, kind: PortInfo.Kind(rawValue: $0.type) ?? .unknown) }
            return .sink(SinkInfo(index: sink.index, name: sink.name, activePort: port))
        case .sinkRemoved(let index): return .sinkRemoved(index: index)
        case .playbackStream(let stream):
            guard stream.properties["application.process.id"] == processID, stream.role == "music" else { return nil }
            return .stream(index: stream.index, sink: stream.device)
        case .playbackStreamRemoved(let index): return .streamRemoved(index: index)
        case .defaultSink(let name): return .defaultSink(name: name)
        case .connected, .listed, .disconnected, .recordingStream, .recordingStreamRemoved: return nil
        }
    }
}
