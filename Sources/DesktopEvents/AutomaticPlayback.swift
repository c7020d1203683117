import Logging
import PlayerCore

/// Pauses and resumes the player on the desktop's behalf, logging each one with its reason.
/// The change reaches PlaybackStatus (and so MPRIS) through the Player like any other.
public final class AutomaticPlayback {
    let player: Player
    let log: Logger

    public init(player: Player, log: Logger) {
        self.player = player
        self.log = log
    }

    /// A pause whose end may resume (a cork, sleep): the Player remembers it until the user acts.
    @discardableResult
    func interrupt(_ reason: AutomaticReason) -> Bool {
        guard player.beginInterruption(outputGone: reason.isOutputRemoval) else { return false }
        log.notice("paused: \(reason)")
        return true
    }

    /// Resumes only what an interruption paused, if the user did nothing since, on a new output stream where the
    /// server puts it. The paused stream stayed corked while the server played others (the call), and libpulse's
    /// clock of a corked stream may not come back through that (docs/platform.md, "Sound server"): resumed on it,
    /// the position read 0 for 15 s after the call in 1 of 15 runs of DaemonOnPipeWireTests' call check.
    @discardableResult
    func resume(_ reason: AutomaticReason) -> Bool {
        resumed(player.endInterruption(onNewOutput: nil), reason)
    }

    /// Resumes as `resume` does, on a new output stream connected to the sound server's sink `sink`
    /// (`Player.endInterruption(onNewOutput:)`): for the output whose removal paused us, back again.
    @discardableResult
    func resume(_ reason: AutomaticReason, onNewOutput sink: String) -> Bool {
        resumed(player.endInterruption(onNewOutput: sink), reason)
    }

    private func resumed(_ done: Bool, _ reason: AutomaticReason) -> Bool {
        if done { log.notice("resumed: \(reason)") }
        return done
    }

    /// Forgets a pending interruption without resuming (its end must not play).
    func forgetInterruption(_ reason: AutomaticReason) {
        guard player.isPausedByInterruption else { return }
        player.pause()  // already paused: this only marks it as final, like a user's pause
        log.info("staying paused: \(reason)")
    }

    /// A pause nothing undoes (an output removed, another player started): like the user's own.
    @discardableResult
    func pause(_ reason: AutomaticReason) -> Bool {
        guard player.status == .playing else { return false }
        player.pause()
        log.notice("paused: \(reason)")
        return true
    }
}
