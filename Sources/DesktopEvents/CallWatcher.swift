import EventLoop
import PulseAudio

/// Pauses while a call plays and resumes after it, on any sound server: PipeWire never sends the cork
/// request PulseAudio's module-role-cork sends, so the calls are watched here through the streams.
/// Upstream: no issue found; pipewire-pulse has no module-role-cork and sends no stream event as of PipeWire 1.6.8
/// (main, 2026-08): not implemented upstream, so this stays.
///
/// On PulseAudio with role-cork both this and the cork ask for the same pause: the Player takes the
/// first and ignores the second (it is no longer playing), and resumes once, only what an interruption
/// paused and only if the user did nothing since.
final class CallWatcher {
    /// How long after the last call stream ends playback resumes: a call app often stops one stream
    /// and starts another (ringing, then the call).
    static let resumeDelay = 1.0

    private let playback: AutomaticPlayback
    private let policies: DesktopPolicies
    private var calls: CallStreams
    private var pendingResume: LoopSource?
    /// Whether the first connection has listed what the server had. It is made when something first needs it
    /// (`DesktopEvents`), so a call found running then began before anything of ours played at the server: it is
    /// noted, not acted on, as a connection made at start-up would have seen it begin with nothing playing. After
    /// a sound-server restart a call found running pauses, as it always did.
    private var firstListed = false

    init(playback: AutomaticPlayback, policies: DesktopPolicies, processID: String) {
        self.playback = playback
        self.policies = policies
        calls = CallStreams(processID: processID)
    }

    func handle(_ change: SoundServerChange) {
        let transition = calls.handle(change)
        if case .listed = change { firstListed = true }
        guard firstListed else { return }
        switch transition {
        case .began?:
            pendingResume = nil
            playback.interrupt(.callStarted)
        case .ended?:
            pendingResume = EventLoop.main.schedule(after: CallWatcher.resumeDelay) { [weak self] in self?.callEnded() }
        case nil: break
        }
    }

    private func callEnded() {
        pendingResume = nil
        if policies.resumeAfterCall { playback.resume(.callEnded) } else { playback.forgetInterruption(.callEnded) }
    }

    func stop() {
        pendingResume = nil
    }
}
