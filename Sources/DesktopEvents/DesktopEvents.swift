import DBus
import Logging
import PlayerCore

/// All desktop event handling for one player, as the daemon wires it in. Each part is switched off
/// by its policy; a part whose service is missing (no logind, no sound server) logs it and stays idle.
public final class DesktopEvents {
    public let playback: AutomaticPlayback
    public let policies: DesktopPolicies
    private let interruptions: SoundServerInterruptions
    private var logind: LogindWatcher?
    private var otherPlayers: OtherPlayerWatcher?
    private var outputs: OutputDeviceMonitor?
    private var route = OutputRoutePolicy()

    /// Call right after creating the player: this takes over `engine.delegate` and forwards to the player.
    public init(player: Player, engine: AudioEngine, policies: DesktopPolicies, log: Logger) {
        playback = AutomaticPlayback(player: player, log: log)
        self.policies = policies
        interruptions = SoundServerInterruptions(engine: engine, playback: playback, policies: policies)
    }

    /// Starts following logind on `systemBus` (nil: none reachable), other players on `sessionBus`
    /// (the connection that owns our MPRIS name, so our own signals are recognised) and the sound
    /// server's outputs. `saveState` runs before sleep, after the pause.
    public func start(systemBus: Connection?, sessionBus: Connection?, saveState: @escaping () -> Void) throws {
        if let systemBus, policies.pauseOnSuspend || policies.pauseOnSessionInactive {
            let watcher = LogindWatcher(systemBus: systemBus, playback: playback, policies: policies, saveState: saveState)
            try watcher.start()
            logind = watcher
        } else if systemBus == nil {
            playback.log.info("no system bus: no pause before sleep or on session switch")
        }
        if let sessionBus, policies.pauseWhenOtherPlayerStarts {
            let watcher = OtherPlayerWatcher(sessionBus: sessionBus, playback: playback)
            try watcher.start()
            otherPlayers = watcher
        }
        if policies.pauseOnOutputRemoved {
            let monitor = OutputDeviceMonitor(log: playback.log) { [weak self] event in self?.outputEvent(event) }
            monitor.start()
            outputs = monitor
        }
    }

    public func stop() {
        logind?.stop()
        otherPlayers?.stop()
        outputs?.stop()
        logind = nil
        otherPlayers = nil
        outputs = nil
    }

    /// Whether a logind delay lock is held now (for logs and tests).
    public var holdsSleepLock: Bool { logind?.holdsLock ?? false }

    private func outputEvent(_ event: SoundServerEvent) {
        playback.log.trace("sound server: \(event)")
        if case .pause(let reason) = route.handle(event) { playback.pause(reason) }
    }
}
