import PlayerCore

/// Stands between the engine and the player for `.interruption` events, so the cork policy can be
/// switched off and each pause and resume is logged; every other event goes to the player unchanged.
///
/// PulseAudio's module-role-cork makes pulsesink ask for PAUSED while a phone-role stream plays and
/// for PLAYING ~1 s after it ends, even if the user had paused meanwhile: the Player resumes only what
/// the interruption paused. PipeWire sends neither; `CallWatcher` covers calls there.
public final class SoundServerInterruptions: AudioEngineDelegate {
    private let playback: AutomaticPlayback
    private let policies: DesktopPolicies

    /// Becomes the engine's delegate (in place of the player, which it forwards to).
    public init(engine: AudioEngine, playback: AutomaticPlayback, policies: DesktopPolicies) {
        self.playback = playback
        self.policies = policies
        engine.delegate = self
    }

    public func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) {
        guard case .interruption(let began) = event else {
            return playback.player.engine(engine, didEmit: event)
        }
        switch CorkDecision(began: began, policies: policies) {
        case .pause: playback.interrupt(.corked)
        case .resume: playback.resume(.uncorked)
        case .stayPaused: playback.forgetInterruption(.uncorked)
        case .ignore: break
        }
    }
}

/// What a sound-server interruption does under the policies.
enum CorkDecision: Equatable {
    case pause, resume, stayPaused, ignore

    init(began: Bool, policies: DesktopPolicies) {
        if began {
            self = policies.pauseOnCork ? .pause : .ignore
        } else {
            self = policies.resumeAfterCork ? .resume : .stayPaused
        }
    }
}
