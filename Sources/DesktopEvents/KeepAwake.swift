import DBus
import Logging
import PlayerCore

/// Keeps the machine from suspending on idle while music plays, and only then: while PlaybackStatus is
/// Playing (buffering included, which the status covers) an inhibitor is held with every service present
/// of `IdleInhibitService`; Pause, Stop, the end of the queue (the status leaves Playing) and `stop()` give
/// them back at once. A suspend the user asks for is never blocked: these are idle inhibitors only
/// (logind's sleep *delay* lock, which pauses first, is `LogindWatcher`'s).
public final class KeepAwake: PlayerObserver {
    private let player: Player
    private let inhibitors: [IdleInhibitor]

    /// `systemBus` nil: no logind; `sessionBus` nil: none of the desktop's services.
    public init(player: Player, sessionBus: Connection?, systemBus: Connection?, log: Logger) {
        self.player = player
        inhibitors = IdleInhibitService.allCases.compactMap { service in
            guard let bus = service.isOnSystemBus ? systemBus : sessionBus else { return nil }
            return IdleInhibitor(service: service, bus: bus, log: log)
        }
    }

    public func start() throws {
        player.addObserver(self)
        for inhibitor in inhibitors { try inhibitor.start() }
        follow(player.status)
    }

    public func stop() {
        player.removeObserver(self)
        inhibitors.forEach { $0.stop() }
    }

    /// Names of the services an inhibitor is held with now (for logs and tests).
    public var heldWith: [String] { inhibitors.filter(\.isHeld).map(\.service.busName) }

    public func playerDidChange(_ change: PlayerChange) {
        if case .status(let status) = change { follow(status) }
    }

    private func follow(_ status: PlaybackStatus) {
        for inhibitor in inhibitors { inhibitor.wanted = status == .playing }
    }
}
