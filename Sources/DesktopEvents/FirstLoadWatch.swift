import PlayerCore

/// Runs its action once, when the player first gives the engine something to play (its state leaves
/// `stopped`): from then on a stream of ours may be at the sound server, and the desktop events follow it.
/// Until then nothing of ours plays there, so the sound server's connection (and libpulse) can wait.
final class FirstLoadWatch: PlayerObserver {
    private var action: (() -> Void)?

    /// Runs `action` at once if the player has loaded something already (a session restored playing).
    init(player: Player, action: @escaping () -> Void) {
        self.action = action
        player.addObserver(self)
        if player.state != .stopped { fire() }
    }

    func playerDidChange(_ change: PlayerChange) {
        guard case .state(let state) = change, state != .stopped else { return }
        fire()
    }

    private func fire() {
        let action = self.action
        self.action = nil
        action?()
    }
}
