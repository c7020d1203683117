import CDBus

/// Which signals to receive: the bus filters with the text form (`AddMatch`), and the connection filters
/// again locally so each subscription gets only its own signals.
public struct MatchRule: Equatable {
    /// A unique name (`:1.7`) or a well-known name; a well-known name is followed to its current owner.
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: ObjectPath?
    /// The first argument must be this string (`NameOwnerChanged` for one name, `PropertiesChanged` for one interface).
    public var arg0: String?

    public init(sender: String? = nil, interface: String? = nil, member: String? = nil,
                path: ObjectPath? = nil, arg0: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.arg0 = arg0
    }

    /// `type='signal',sender='…',…`; an apostrophe in a value is written `'\''` as the specification says.
    public var text: String {
        let fields: [(String, String?)] = [("sender", sender), ("interface", interface), ("member", member),
                                           ("path", path?.rawValue), ("arg0", arg0)]
        return (["type='signal'"] + fields.compactMap { key, value in
            value.map { "\(key)='" + $0.split(separator: "'", omittingEmptySubsequences: false)
                .joined(separator: "'\\''") + "'" }
        }).joined(separator: ",")
    }

    func validate() throws {
        if let sender { try Names.checkBusName(sender) }
        if let interface { try Names.checkInterface(interface) }
        if let member { try Names.checkMember(member) }
        if let arg0 { try Names.checkString(arg0) }
    }

    /// Whether the sender must be resolved to an owner: the bus stamps signals with unique names only.
    var followsOwner: Bool { sender.map { !$0.hasPrefix(":") && $0 != SignalRouter.busName } ?? false }

    func matches(_ signal: Signal, owner: String?) -> Bool {
        if let sender, signal.sender != (followsOwner ? owner : sender) { return false }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        if let path, signal.path != path { return false }
        if let arg0, signal.arguments.first?.stringValue != arg0 { return false }
        return true
    }
}

/// A received signal.
public struct Signal {
    public let sender: String?
    public let path: ObjectPath
    public let interface: String
    public let member: String
    public let arguments: [DBusValue]
}

/// Keeps a subscription alive; `cancel()` or releasing it removes the handler and the bus match.
public final class SignalSubscription {
    private var cancellation: (() -> Void)?
    init(_ cancellation: @escaping () -> Void) { self.cancellation = cancellation }

    public func cancel() {
        cancellation?()
        cancellation = nil
    }

    deinit { cancel() }
}

/// The subscriptions of one connection.
final class SignalRouter {
    static let busName = "org.freedesktop.DBus"

    final class Entry {
        let rule: MatchRule
        let handler: (Signal) -> Void
        var owner: String?
        init(rule: MatchRule, handler: @escaping (Signal) -> Void) {
            self.rule = rule
            self.handler = handler
        }
    }

    private var entries: [Int: Entry] = [:]
    private var nextID = 0

    func add(_ entry: Entry) -> Int {
        nextID += 1
        entries[nextID] = entry
        return nextID
    }

    func remove(_ id: Int) { entries[id] = nil }

    func deliver(_ message: Message) {
        guard let interface = message.interface, let member = message.member,
              let arguments = try? message.arguments() else { return }
        let signal = Signal(sender: message.sender, path: ObjectPath(trusted: message.path ?? "/"),
                            interface: interface, member: member, arguments: arguments)
        // Handlers may subscribe or cancel: iterate over a snapshot, skipping entries removed meanwhile.
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) where entries[id] != nil {
            if entry.rule.matches(signal, owner: entry.owner) { entry.handler(signal) }
        }
    }
}

extension Connection {
    /// Receives signals matching `rule` on the loop until the returned subscription is cancelled or released.
    /// With a well-known `sender`, signals are delivered from whichever process owns that name at the time.
    public func subscribe(rule: MatchRule, handler: @escaping (Signal) -> Void) throws -> SignalSubscription {
        try rule.validate()
        let entry = SignalRouter.Entry(rule: rule, handler: handler)
        let id = signals.add(entry)
        dbus_bus_add_match(raw, rule.text, nil)  // no error out-parameter: libdbus does not wait for the reply
        var ownerWatch: SignalSubscription?
        if rule.followsOwner, let name = rule.sender {
            ownerWatch = try watchNameOwner(name) { entry.owner = $0 }
        }
        return SignalSubscription { [weak self] in
            ownerWatch?.cancel()
            guard let self else { return }
            self.signals.remove(id)
            if self.isConnected { dbus_bus_remove_match(self.raw, rule.text, nil) }
        }
    }

    /// Calls `handler` with the current owner of `name` (nil when none), then on every change
    /// (`NameOwnerChanged`), until the subscription is cancelled or released.
    public func watchNameOwner(_ name: String, handler: @escaping (String?) -> Void) throws -> SignalSubscription {
        try Names.checkBusName(name)
        let rule = MatchRule(sender: SignalRouter.busName, interface: SignalRouter.busName,
                             member: "NameOwnerChanged", path: "/org/freedesktop/DBus", arg0: name)
        var sawChange = false
        let subscription = try subscribe(rule: rule) { signal in
            guard signal.arguments.count == 3, let newOwner = signal.arguments[2].stringValue else { return }
            sawChange = true
            handler(newOwner.isEmpty ? nil : newOwner)
        }
        call(destination: SignalRouter.busName, path: "/org/freedesktop/DBus", interface: SignalRouter.busName,
             method: "GetNameOwner", arguments: [.string(name)]) { [weak subscription] result in
            guard subscription != nil, !sawChange else { return }  // a change already told the newer owner
            handler(try? result.get().first?.stringValue)
        }
        return subscription
    }
}
