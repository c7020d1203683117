import DBus
import Glibc
import Logging
import PlayerCore

/// Suspend and session handling through logind on the system bus.
///
/// While playing it holds a *delay* inhibitor lock (`Manager.Inhibit("sleep", …, "delay")` returns a
/// file descriptor; logind waits up to InhibitDelayMaxSec for it to be closed). On PrepareForSleep(true)
/// it pauses, has the state saved, then closes the descriptor. On PrepareForSleep(false) it stays paused
/// unless `resumeAfterWake`, and takes a new lock once playing again. When our login session becomes
/// inactive (Session.Active false), it pauses. Without logind on the bus it logs that once and does nothing.
public final class LogindWatcher: PlayerObserver {
    static let service = "org.freedesktop.login1"
    static let managerPath: ObjectPath = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"
    static let session = "org.freedesktop.login1.Session"

    private let bus: Connection
    private let playback: AutomaticPlayback
    private let policies: DesktopPolicies
    private let saveState: () -> Void
    private var subscriptions: [SignalSubscription] = []
    private var sessionSubscription: SignalSubscription?
    private var lock: ReceivedFileDescriptor?
    private var requestingLock = false
    private var available = false
    private var sleeping = false
    private var pausedForSleep = false
    private var toldMissing = false

    /// `saveState` is called before sleep, after the pause, while the lock still holds sleep back.
    public init(systemBus: Connection, playback: AutomaticPlayback, policies: DesktopPolicies,
                saveState: @escaping () -> Void) {
        bus = systemBus
        self.playback = playback
        self.policies = policies
        self.saveState = saveState
    }

    /// Follows logind's presence on the bus, and the player's status for the lock.
    public func start() throws {
        playback.player.addObserver(self)
        subscriptions.append(try bus.subscribe(rule: MatchRule(sender: Self.service, interface: Self.manager,
                                                               member: "PrepareForSleep", path: Self.managerPath)) {
            [weak self] signal in
            guard let going = signal.arguments.first?.boolValue else { return }
            self?.prepareForSleep(going)
        })
        subscriptions.append(try bus.watchNameOwner(Self.service) { [weak self] owner in self?.logind(present: owner != nil) })
    }

    public func stop() {
        subscriptions = []
        sessionSubscription = nil
        lock?.close()
        lock = nil
        playback.player.removeObserver(self)
    }

    /// Whether a delay lock is held now.
    public var holdsLock: Bool { lock?.isOpen ?? false }

    public func playerDidChange(_ change: PlayerChange) {
        if case .status = change { updateLock() }
    }

    private func logind(present: Bool) {
        available = present
        guard present else {
            lock = nil  // logind forgets locks of a vanished connection; the descriptor is closed on release
            if !toldMissing { playback.log.info("logind is not on the system bus: no pause before sleep or on session switch") }
            toldMissing = true
            return
        }
        updateLock()
        if policies.pauseOnSessionInactive { followSession() }
    }

    // MARK: Sleep

    private func prepareForSleep(_ going: Bool) {
        if going {
            sleeping = true
            for step in SleepDecision.beforeSleep(playing: playback.player.status == .playing, policies: policies) {
                switch step {
                case .pause: pausedForSleep = playback.interrupt(.sleeping)
                case .saveState: saveState()
                case .releaseLock: releaseLock()
                }
            }
        } else {
            sleeping = false
            switch SleepDecision.afterWake(pausedForSleep: pausedForSleep, policies: policies) {
            case .resume: playback.resume(.woke)
            case .stayPaused: playback.forgetInterruption(.woke)
            case .nothing: break
            }
            pausedForSleep = false
            updateLock()
        }
    }

    private func updateLock() {
        // Between PrepareForSleep(true) and (false) the sleep steps own the lock: our own pause must not
        // release it before the state is saved.
        guard !sleeping else { return }
        let wanted = available && SleepDecision.wantsLock(status: playback.player.status, policies: policies)
        if !wanted { return releaseLock() }
        guard lock == nil, !requestingLock else { return }
        requestingLock = true
        bus.call(destination: Self.service, path: Self.managerPath, interface: Self.manager, method: "Inhibit",
                 arguments: [.string("sleep"), .string("Quaver"), .string("Pause music before sleep"), .string("delay")]) {
            [weak self] result in self?.lockArrived(result)
        }
    }

    private func lockArrived(_ result: Result<[DBusValue], DBusError>) {
        requestingLock = false
        switch result {
        case .success(let values):
            guard let fd = values.first?.fileDescriptorValue else {
                return playback.log.warning("logind Inhibit answered \(values.signature), not a file descriptor")
            }
            lock = fd
            playback.log.debug("holding a delay inhibitor lock (\(fd))")
            updateLock()  // the status may have changed while we waited: release at once if so
        case .failure(let error):
            playback.log.warning("logind refused an inhibitor lock: \(error)")
        }
    }

    private func releaseLock() {
        guard let lock else { return }
        lock.close()
        self.lock = nil
        playback.log.debug("released the delay inhibitor lock")
    }

    // MARK: Session

    /// Finds our session (GetSessionByPID; a user service has none, then XDG_SESSION_ID or "auto")
    /// and follows its Active property.
    private func followSession() {
        bus.call(destination: Self.service, path: Self.managerPath, interface: Self.manager, method: "GetSessionByPID",
                 arguments: [.uint32(UInt32(getpid()))]) { [weak self] result in
            guard let self else { return }
            if case .success(let values) = result, let path = values.first?.objectPathValue { return self.follow(path) }
            let id = getenv("XDG_SESSION_ID").map { String(cString: $0) } ?? "auto"
            self.bus.call(destination: Self.service, path: Self.managerPath, interface: Self.manager,
                          method: "GetSession", arguments: [.string(id)]) { [weak self] result in
                guard let self else { return }
                guard let path = try? result.get().first?.objectPathValue else {
                    return self.playback.log.info("no logind session found for this process: not following it")
                }
                self.follow(path)
            }
        }
    }

    private func follow(_ path: ObjectPath) {
        let rule = MatchRule(sender: Self.service, interface: "org.freedesktop.DBus.Properties",
                             member: "PropertiesChanged", path: path, arg0: Self.session)
        sessionSubscription = try? bus.subscribe(rule: rule) { [weak self] signal in
            guard signal.arguments.count >= 2, let changed = signal.arguments[1].dictionaryValue,
                  changed["Active"]?.boolValue == false else { return }
            self?.playback.pause(.sessionInactive)
        }
        playback.log.debug("following logind session \(path)")
    }
}
