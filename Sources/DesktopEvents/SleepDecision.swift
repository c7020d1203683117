import PlayerCore

/// What suspend handling does, as pure decisions (logind's delay inhibitor protocol:
/// hold a "delay" lock while playing; on PrepareForSleep(true) do the work, then release it).
enum SleepDecision {
    /// Steps before sleep, in this order: the pause and the saved state must be done before the lock
    /// is released, since releasing it lets the machine sleep.
    enum Step: Equatable { case pause, saveState, releaseLock }

    static func beforeSleep(playing: Bool, policies: DesktopPolicies) -> [Step] {
        guard policies.pauseOnSuspend else { return [.releaseLock] }
        return (playing ? [.pause] : []) + [.saveState, .releaseLock]
    }

    enum Wake: Equatable { case resume, stayPaused, nothing }

    static func afterWake(pausedForSleep: Bool, policies: DesktopPolicies) -> Wake {
        guard pausedForSleep else { return .nothing }
        return policies.resumeAfterWake ? .resume : .stayPaused
    }

    /// A lock is held only while playing (the sleep steps decide while the machine is going to sleep).
    static func wantsLock(status: PlaybackStatus, policies: DesktopPolicies) -> Bool {
        policies.pauseOnSuspend && status == .playing
    }
}
