import PulseAudio

/// Tells, from the sound server's stream changes in order, when a call begins (the first call stream
/// runs) and when it ends (the last one stops). A call stream is a playback or recording stream with
/// media.role = phone that is not corked: pipewire-pulse reports PipeWire's `Communication` role as
/// `phone`, so this works on PulseAudio and on PipeWire alike. Notification (`event`), accessibility
/// (`a11y`) and role-less streams are not calls; streams of this process are never calls.
struct CallStreams: Equatable {
    enum Transition: Equatable { case began, ended }

    private enum Key: Hashable { case playback(UInt32), recording(UInt32) }

    let processID: String
    private var running: Set<Key> = []

    init(processID: String) {
        self.processID = processID
    }

    var isCallRunning: Bool { !running.isEmpty }

    mutating func handle(_ change: SoundServerChange) -> Transition? {
        let wasRunning = isCallRunning
        switch change {
        case .playbackStream(let stream): update(.playback(stream.index), isCall: isRunningCall(stream))
        case .recordingStream(let stream): update(.recording(stream.index), isCall: isRunningCall(stream))
        case .playbackStreamRemoved(let index): running.remove(.playback(index))
        case .recordingStreamRemoved(let index): running.remove(.recording(index))
        case .disconnected: running = []  // the server's streams died with it
        case .connected, .listed, .sink, .sinkRemoved, .defaultSink: break
        }
        if isCallRunning == wasRunning { return nil }
        return isCallRunning ? .began : .ended
    }

    private mutating func update(_ key: Key, isCall: Bool) {
        if isCall { running.insert(key) } else { running.remove(key) }
    }

    private func isRunningCall(_ stream: SoundStream) -> Bool {
        stream.role == "phone" && !stream.corked && stream.properties["application.process.id"] != processID
    }
}
