// Pauses the desktop asks for: the sound server corking music for a phone call, the machine going to
// sleep. Only what an interruption paused is resumed, and only if the user did nothing since
// (docs/platform.md, "Sound server": pulsesink asks to play again even when the user had paused).
// Upstream: by design (pulsesink's `gst_pulsering_stream_event_cb` turns every uncork request into REQUEST_STATE
// PLAYING, still in GStreamer 1.29.2 (main, 2026-08)): it stays.
extension Player {
    /// The engine passed on a request of the sound server (PulseAudio's role-cork: pause for a call,
    /// play again after it): the policy set in `soundServerRequestPolicy` decides, else the core obeys.
    func soundServerAsked(toPause pause: Bool) {
        if let policy = soundServerRequestPolicy { return policy(pause) }
        if pause { beginInterruption() } else { endInterruption() }
    }

    /// The output is gone until the engine gets it back: paused meanwhile, whatever the cork policy says
    /// (this is no request of the sound server), and playing again after it if the user did nothing since.
    func outputLost(_ began: Bool) {
        if began { beginInterruption(outputGone: true) } else { endInterruption() }
    }

    /// Pauses because the desktop needs it. Returns whether it paused (false when not playing).
    /// The pause can be undone by `endInterruption()` until the user acts (any command, a seek).
    /// `outputGone`: the output it played on went away (WaitingReason says so), not a request to pause.
    @discardableResult
    public func beginInterruption(outputGone: Bool = false) -> Bool {
        var paused = false
        changing {
            guard status == .playing else { return }
            status = .paused
            pausedByInterruption = true
            self.outputGone = outputGone
            engine.pause()
            paused = true
        }
        return paused
    }

    /// Plays again if an interruption paused us and the user did nothing since. Returns whether it resumed.
    @discardableResult
    public func endInterruption() -> Bool {
        endInterruption(resumingWith: resumeEngine)
    }

    /// Plays again as `endInterruption()` does, on a new output stream connected to the sound server's sink
    /// `sink` (nil: where the server puts a new stream of ours), started where playback paused
    /// (`AudioEngine.playOnNewOutput`): for an output whose removal paused us and that came back, and for every
    /// pause the desktop asked for (a call), whose stream stayed corked while the server went on playing others.
    @discardableResult
    public func endInterruption(onNewOutput sink: String?) -> Bool {
        endInterruption(resumingWith: { if bufferingPercent >= 100 { engine.playOnNewOutput(device: sink) } })
    }

    private func endInterruption(resumingWith resume: () -> Void) -> Bool {
        var resumed = false
        changing {
            guard pausedByInterruption else { return }
            pausedByInterruption = false
            guard status == .paused, let current = currentTrackID, loaded == current else { return }
            status = .playing
            resume()
            resumed = true
        }
        return resumed
    }

    /// Whether an interruption paused us and the user has not acted since.
    public var isPausedByInterruption: Bool { pausedByInterruption }
}
