// Desktop events that pause (and sometimes resume) playback, each one switchable.
//
//   sound server (cork)      ─▶ SoundServerInterruptions ─┐
//   logind (sleep, session)  ─▶ LogindWatcher ────────────┤
//   sound server (sinks)     ─▶ OutputDeviceMonitor ──────┼─▶ AutomaticPlayback ─▶ Player (PlaybackStatus)
//   sound server (streams)   ─▶ CallWatcher ──────────────┤        (logs every pause/resume with its reason)
//   other MPRIS players      ─▶ OtherPlayerWatcher ───────┘
//
// Apart from these, `KeepAwake` follows PlaybackStatus to hold idle-suspend inhibitors while playing.
//
// Both sound-server parts share one SoundServerConnection (libpulse, through the PulseAudio module), made at the
// first track loaded or the first question about outputs (`FirstLoadWatch`, `OutputSelector.connectionNeeded`).
// Every decision is a pure function or value type (`OutputRoutePolicy`, `CallStreams`, `SleepDecision`,
// `OtherPlayerPolicy`), tested with recorded events; the watchers only translate the outside world.
import Configuration

/// Which automatic pauses and resumes are on: the `[interruptions]` settings themselves (pause-on-cork,
/// resume-after-cork, pause-on-call, …), one type for the file and for the policies that read it.
public typealias DesktopPolicies = Configuration.Interruptions

/// Why playback was paused or resumed without the user asking: logged, one line each.
public enum AutomaticReason: Equatable, Sendable, CustomStringConvertible {
    case corked, uncorked
    case callStarted, callEnded
    case sleeping, woke
    case outputRemoved(sink: String)
    case outputReturned(sink: String)
    case outputStayedAway(sink: String)
    case portChanged(sink: String, from: String, to: String)
    case sessionInactive
    case otherPlayerStarted(busName: String)

    /// The output device we played on went away (WaitingReason `output-gone` while it is awaited).
    var isOutputRemoval: Bool {
        if case .outputRemoved = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .corked: return "the sound server asked us to pause (another stream, e.g. a call)"
        case .uncorked: return "the sound server's interruption ended"
        case .callStarted: return "a call started (a phone-role stream)"
        case .callEnded: return "the call ended"
        case .sleeping: return "the system is about to sleep"
        case .woke: return "the system woke up"
        case .outputRemoved(let sink): return "the output device \(sink) was removed"
        case .outputReturned(let sink): return "the output device \(sink) came back"
        case .outputStayedAway(let sink): return "the output device \(sink) did not come back in time"
        case .portChanged(let sink, let from, let to): return "output \(sink) switched from \(from) to \(to)"
        case .sessionInactive: return "the login session became inactive"
        case .otherPlayerStarted(let name): return "another player started playing (\(name))"
        }
    }
}
