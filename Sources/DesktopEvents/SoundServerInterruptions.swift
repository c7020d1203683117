import PlayerCore

/// The cork policy for sound-server requests, which the player hands over (`soundServerRequestPolicy`):
/// it can be switched off, and each pause and resume is logged.
///
/// PulseAudio's module-role-cork makes pulsesink ask for PAUSED while a phone-role stream plays and
/// for PLAYING ~1 s after it ends, even if the user had paused meanwhile: the Player resumes only what
/// the interruption paused. PipeWire sends neither; `CallWatcher` covers calls there.
/// Upstream: by design on PulseAudio (pulsesink passes each request on); PipeWire: see `CallWatcher`.
final class SoundServerInterruptions {
    private let playback: AutomaticPlayback
    private let policies: DesktopPolicies

    init(playback: AutomaticPlayback, policies: DesktopPolicies) {
        self.playback = playback
        self.policies = policies
        playback.player.soundServerRequestPolicy = { [weak self] began in self?.soundServerAsked(toPause: began) }
    }

    private func soundServerAsked(toPause began: Bool) {
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
