// Desktop events that pause (and sometimes resume) playback, each one switchable.
//
//   sound server (cork)      ─▶ SoundServerInterruptions ─┐
//   logind (sleep, session)  ─▶ LogindWatcher ────────────┤
//   sound server (sinks)     ─▶ OutputDeviceMonitor ──────┼─▶ AutomaticPlayback ─▶ Player (PlaybackStatus)
//   other MPRIS players      ─▶ OtherPlayerWatcher ───────┘        (logs every pause/resume with its reason)
//
// Every decision is a pure function or value type (`OutputRoutePolicy`, `SleepDecision`,
// `OtherPlayerPolicy`), tested with recorded events; the watchers only translate the outside world.

/// Which automatic pauses and resumes are on. The daemon fills it from the `[interruptions]` configuration.
public struct DesktopPolicies: Equatable, Sendable {
    /// Pause when the sound server corks us (a phone call: PulseAudio's module-role-cork).
    public var pauseOnCork = true
    /// Play again when that cork ends, if it paused us and the user did nothing since.
    public var resumeAfterCork = true
    /// Pause before the machine sleeps (logind PrepareForSleep, with a delay inhibitor lock).
    public var pauseOnSuspend = true
    /// Play again after waking, if sleep paused us and the user did nothing since.
    public var resumeAfterWake = false
    /// Pause when the output we play on goes away, or its headphones are unplugged.
    public var pauseOnOutputRemoved = true
    /// Pause when our login session becomes inactive (user switch, lock screen on some systems).
    public var pauseOnSessionInactive = true
    /// Pause when another MPRIS player starts playing.
    public var pauseWhenOtherPlayerStarts = false

    public init() {}
}

/// Why playback was paused or resumed without the user asking: logged, one line each.
public enum AutomaticReason: Equatable, Sendable, CustomStringConvertible {
    case corked, uncorked
    case sleeping, woke
    case outputRemoved(sink: String)
    case portChanged(sink: String, from: String, to: String)
    case sessionInactive
    case otherPlayerStarted(busName: String)

    public var description: String {
        switch self {
        case .corked: return "the sound server asked us to pause (another stream, e.g. a call)"
        case .uncorked: return "the sound server's interruption ended"
        case .sleeping: return "the system is about to sleep"
        case .woke: return "the system woke up"
        case .outputRemoved(let sink): return "the output device \(sink) was removed"
        case .portChanged(let sink, let from, let to): return "output \(sink) switched from \(from) to \(to)"
        case .sessionInactive: return "the login session became inactive"
        case .otherPlayerStarted(let name): return "another player started playing (\(name))"
        }
    }
}
