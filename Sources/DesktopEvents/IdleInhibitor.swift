import DBus
import Logging

/// One service's inhibitor against idle suspend: held while `wanted` and the service is on the bus,
/// given back as soon as it is not wanted. When the service leaves the bus its inhibitors go with it,
/// so a new owner (the service restarted) is asked again.
final class IdleInhibitor {
    let service: IdleInhibitService
    private let bus: Connection
    private let log: Logger
    private var ownerWatch: SignalSubscription?
    private var owner: String?
    /// logind only: whether its IdleAction suspends (read each time logind appears).
    private var applies: Bool
    private var token: IdleInhibitToken?
    /// Bumped whenever the owner changes: an answer from a former owner is dropped.
    private var generation = 0
    private var requesting = false

    var wanted = false {
        didSet { update() }
    }

    var isHeld: Bool { token != nil }

    init(service: IdleInhibitService, bus: Connection, log: Logger) {
        self.service = service
        self.bus = bus
        self.log = log
        applies = service != .logind
    }

    func start() throws {
        ownerWatch = try bus.watchNameOwner(service.busName) { [weak self] owner in self?.ownerChanged(owner) }
    }

    /// Gives the inhibitor back (the call is queued; the daemon flushes its connection on the way out).
    func stop() {
        wanted = false
        ownerWatch = nil
    }

    private func ownerChanged(_ newOwner: String?) {
        guard newOwner != owner else { return }
        owner = newOwner
        generation += 1
        requesting = false
        forgetToken()  // a service that left the bus dropped what we held with it
        guard newOwner != nil else { return }
        if service == .logind { readIdleAction() } else { update() }
    }

    private func update() {
        guard owner != nil, applies else { return }
        if wanted, token == nil, !requesting { take() }
        if !wanted, let token { release(token) }
    }

    private func take() {
        requesting = true
        let call = service.take, sent = generation
        bus.call(destination: service.busName, path: call.path, interface: call.interface, method: call.method,
                 arguments: call.arguments) { [weak self] result in
            guard let self, sent == self.generation else { return }
            self.requesting = false
            self.answered(result)
        }
    }

    private func answered(_ result: Result<[DBusValue], DBusError>) {
        switch result {
        case .success(let values):
            guard let token = service.token(from: values) else {
                return log.warning("\(service) answered Inhibit with \(values.signature): not keeping the machine awake")
            }
            self.token = token
            log.debug("keeping the machine from idle suspend through \(service)")
            update()  // the player may have paused while we waited: give it back at once
        case .failure(let error):
            log.warning("\(service) refused to keep the machine awake: \(error)")
        }
    }

    private func release(_ token: IdleInhibitToken) {
        self.token = nil
        if let call = service.release(token) {
            bus.call(destination: service.busName, path: call.path, interface: call.interface, method: call.method,
                     arguments: call.arguments) { [log, service] result in
                if case .failure(let error) = result { log.debug("\(service) did not take the inhibitor back: \(error)") }
            }
        }
        if case .descriptor(let descriptor) = token { descriptor.close() }
        log.debug("idle suspend allowed again (\(service))")
    }

    private func forgetToken() {
        if case .descriptor(let descriptor)? = token { descriptor.close() }
        token = nil
    }

    /// logind suspends on idle only when IdleAction says so; elsewhere the desktop does, through the others.
    private func readIdleAction() {
        let sent = generation
        bus.call(destination: service.busName, path: "/org/freedesktop/login1", interface: "org.freedesktop.DBus.Properties",
                 method: "Get", arguments: [.string("org.freedesktop.login1.Manager"), .string("IdleAction")]) {
            [weak self] result in
            guard let self, sent == self.generation else { return }
            let action = (try? result.get())?.first?.stringValue ?? ""
            self.applies = IdleInhibitService.sleepingIdleActions.contains(action)
            self.update()
        }
    }
}
