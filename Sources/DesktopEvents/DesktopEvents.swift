import DBus
import Glibc
import Logging
import PlayerCore
import PulseAudio

/// All desktop event handling for one player, as the daemon wires it in. Each part is switched off
/// by its policy; a part whose service is missing (no logind, no sound server) logs it and stays idle.
public final class DesktopEvents {
    public let playback: AutomaticPlayback
    public let policies: DesktopPolicies
    /// The sink chosen for the music (`SetOutput`), and the list of sinks.
    public let outputSelector: OutputSelector
    private let interruptions: SoundServerInterruptions
    private var logind: LogindWatcher?
    private var otherPlayers: OtherPlayerWatcher?
    /// Made at `start`, connected at the first need (`soundServerNeeded`), which loads libpulse.
    private var soundServer: SoundServerConnection?
    private var soundServerAsked = false
    private var firstLoad: FirstLoadWatch?
    private let outputs: OutputDeviceMonitor
    private var route = OutputRoutePolicy()
    private var calls: CallWatcher?
    private var keepAwake: KeepAwake?
    private let outputReturn: OutputReturn
    /// Whether the sound server was reachable at the last change: each outage is logged once.
    private var soundServerUp: Bool?

    /// Sets the player's sound-server request policy; the rest starts with `start`.
    public init(player: Player, policies: DesktopPolicies, log: Logger) {
        playback = AutomaticPlayback(player: player, log: log)
        self.policies = policies
        interruptions = SoundServerInterruptions(playback: playback, policies: policies)
        outputs = OutputDeviceMonitor(processID: String(getpid()))
        outputSelector = OutputSelector(log: log)
        outputReturn = OutputReturn(playback: playback, selector: outputSelector, windowMinutes: policies.resumeWindowMinutes)
    }

    /// Starts following logind on `systemBus` (nil: none reachable), other players on `sessionBus`
    /// (the connection that owns our MPRIS name, so our own signals are recognised) and the sound
    /// server's outputs and calls, from the player's first load or a client's first question about outputs on
    /// (a daemon with nothing loaded has no stream there to follow). `saveState` runs before sleep, after the pause. With `keepAwakeWhilePlaying`,
    /// the machine is kept from idle suspend while playing (`KeepAwake`).
    public func start(systemBus: Connection?, sessionBus: Connection?, keepAwakeWhilePlaying: Bool = false,
                      saveState: @escaping () -> Void) throws {
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
        if keepAwakeWhilePlaying {
            let keepAwake = KeepAwake(player: playback.player, sessionBus: sessionBus, systemBus: systemBus, log: playback.log)
            try keepAwake.start()
            self.keepAwake = keepAwake
        }
        prepareSoundServer()
    }

    private func prepareSoundServer() {
        // The outputs are always followed: `Outputs` lists them and `SetOutput` moves our stream.
        var interests: SoundServerConnection.Interests = [.sinks, .playbackStreams, .defaultSink]
        if policies.pauseOnCall {
            interests.formUnion([.playbackStreams, .recordingStreams])
            calls = CallWatcher(playback: playback, policies: policies, processID: outputs.processID)
        }
        let connection = SoundServerConnection(name: "Quaver desktop events", interests: interests) { [weak self] change in
            self?.soundServerChanged(change)
        }
        soundServer = connection
        outputSelector.connection = connection
        outputSelector.connectionNeeded = { [weak self] in self?.soundServerNeeded() }
        firstLoad = FirstLoadWatch(player: playback.player) { [weak self] in self?.soundServerNeeded() }
    }

    /// Connects to the sound server the first time something needs it: the player's first load (our stream
    /// appears then), a client reading `Outputs` or calling `SetOutput`. Kept from then on.
    private func soundServerNeeded() {
        guard let soundServer, !soundServerAsked else { return }
        soundServerAsked = true
        soundServer.start()
        if let reason = soundServer.unavailable {
            playback.log.warning("libpulse cannot be loaded (\(reason)): outputs and calls are not followed")
        }
    }

    public func stop() {
        logind?.stop()
        otherPlayers?.stop()
        soundServer?.stop()
        outputSelector.connection = nil
        outputSelector.connectionNeeded = nil
        calls?.stop()
        outputReturn.stop()
        keepAwake?.stop()
        keepAwake = nil
        logind = nil
        otherPlayers = nil
        soundServer = nil
        soundServerAsked = false
        firstLoad = nil
        calls = nil
    }

    /// Whether a logind delay lock is held now (for logs and tests).
    public var holdsSleepLock: Bool { logind?.holdsLock ?? false }

    /// The services keeping the machine from idle suspend now (for logs and tests).
    public var idleInhibitorsHeld: [String] { keepAwake?.heldWith ?? [] }

    private func soundServerChanged(_ change: SoundServerChange) {
        playback.log.trace("sound server: \(change)")
        switch change {
        case .connected:
            if soundServerUp == false { playback.log.debug("sound server connection back") }
            soundServerUp = true
        case .disconnected:
            if soundServerUp == nil {
                playback.log.info("no sound server reachable: outputs and calls are followed once one starts")
            } else if soundServerUp == true {
                playback.log.info("sound server connection lost: outputs and calls are not followed until it is back")
            }
            soundServerUp = false
            route = OutputRoutePolicy()  // its sinks and streams died with the server
        default: break
        }
        calls?.handle(change)
        let event = outputs.event(for: change)
        outputSelector.handle(change, ours: event)
        if policies.pauseOnOutputRemoved, let event, case .pause(let reason) = route.handle(event) {
            if case .outputRemoved(let sink) = reason, policies.resumeWhenOutputReturns {
                outputReturn.removed(reason, sink: sink)
            } else {
                playback.pause(reason)
            }
        }
        if policies.resumeWhenOutputReturns { outputReturn.handle(change) }
    }
}
