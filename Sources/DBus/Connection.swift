// DBus: the wrapper around libdbus (connections, typed values, exported objects, Properties,
// introspection, replies given later). A wrapper: it owns every libdbus call; may import CDBus, CShims
// and EventLoop, never GStreamer or the core.
import CDBus
import Dispatch
import EventLoop

/// A private libdbus connection driven by `EventLoop.main` (see `LoopAttachment`).
///
/// Everything runs on the loop thread: exported method handlers, property getters, signal handlers and
/// reply handlers of asynchronous calls. Only the marshalling of a reply or signal of thousands of values
/// is done on a thread of its own (`send(to:buildingOffTheLoop:)`). Blocking calls (`call(...) throws`, `requestName`) block the loop,
/// so they are for start-up and for clients; a service never makes a blocking call to itself.
///
/// libdbus aborts the process on misuse, so every name, path, signature and string is validated before it
/// reaches libdbus, and incoming messages are read by the type they carry, never by the type we expect.
/// Upstream: by design (libdbus's checks are fatal unless DBUS_FATAL_WARNINGS=0, dbus-internals.c): it stays.
public final class Connection {
    let raw: OpaquePointer
    private var attachment: LoopAttachment?
    let objects = ObjectTree()
    let signals = SignalRouter()
    private var closed = false
    /// Messages held while one ahead of them is built off the loop.
    private var outgoing = OutgoingOrder<Message>()
    /// Builds large messages, one at a time, in the order they were asked for.
    private static let builder = DispatchQueue(label: "quaver.dbus.building")

    /// The bus-assigned unique name (`:1.42`).
    public let uniqueName: String

    /// Called once when the bus connection is lost (libdbus's `Disconnected` signal). libdbus does not
    /// exit the process for us: `dbus_connection_set_exit_on_disconnect` is off.
    /// Upstream: by design (`dbus_bus_get_private` documents that it turns the exit on): it stays.
    public var onDisconnect: (() -> Void)?

    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public static func session() throws -> Connection { try Connection(bus: DBUS_BUS_SESSION) }

    /// The system bus (logind, etc.).
    public static func system() throws -> Connection { try Connection(bus: DBUS_BUS_SYSTEM) }

    private convenience init(bus: DBusBusType) throws {
        let raw = try Connection.connecting { dbus_bus_get_private(bus, $0) }
        self.init(registered: raw)
    }

    /// A bus at `address` (`unix:path=…`), registered with `Hello`.
    public convenience init(address: String) throws {
        guard !address.utf8.contains(0) else {
            throw ConnectionError.cannotConnect(.invalidArgs("address contains NUL"))
        }
        let raw = try Connection.connecting { dbus_connection_open_private(address, $0) }
        do {
            try CError.check { dbus_bus_register(raw, $0) != 0 }
        } catch let error as DBusError {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw ConnectionError.cannotConnect(error)
        }
        self.init(registered: raw)
    }

    private init(registered raw: OpaquePointer) {
        self.raw = raw
        uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        dbus_connection_set_exit_on_disconnect(raw, 0)
        dbus_connection_add_filter(raw, Connection.filterFunction, Unmanaged.passUnretained(self).toOpaque(), nil)
        attachment = LoopAttachment(raw)
    }

    private static func connecting(_ open: (UnsafeMutablePointer<CDBus.DBusError>) -> OpaquePointer?) throws
        -> OpaquePointer {
        do {
            var connection: OpaquePointer?
            try CError.check { connection = open($0); return connection != nil }
            return connection!
        } catch let error as DBusError {
            throw ConnectionError.cannotConnect(error)
        }
    }

    /// Closes the connection; also done on release. Pending reply handlers receive a `Disconnected` error.
    public func close() {
        guard !closed else { return }
        closed = true
        attachment?.detach()
        attachment = nil
        dbus_connection_remove_filter(raw, Connection.filterFunction, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(raw)
    }

    /// Gives `name` back and writes what is queued while the bus is still there, then closes: a service's way
    /// out, so its clients see the name go before the connection does.
    public func close(releasing name: String) {
        if isConnected {
            try? releaseName(name)
            flush()
        }
        close()
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Owns `name` with `DBUS_NAME_FLAG_DO_NOT_QUEUE`; throws `ConnectionError.nameTaken` when another
    /// process owns it (reply `EXISTS`), so a second instance can say so and exit instead of waiting invisibly.
    public func requestName(_ name: String) throws {
        try Names.checkBusName(name)
        let doNotQueue: UInt32 = 4, primaryOwner: Int32 = 1, exists: Int32 = 3, alreadyOwner: Int32 = 4
        var reply: Int32 = -1
        try CError.check { reply = dbus_bus_request_name(raw, name, doNotQueue, $0); return reply != -1 }
        scheduleDispatch()
        switch reply {
        case primaryOwner, alreadyOwner: return
        case exists: throw ConnectionError.nameTaken(name)
        default: throw DBusError.failed("RequestName(\(name)) answered \(reply)")
        }
    }

    /// Gives a name up (`ReleaseName`).
    public func releaseName(_ name: String) throws {
        try Names.checkBusName(name)
        try CError.check { dbus_bus_release_name(raw, name, $0) != -1 }
    }

    /// Serves `object` at its path, replacing any object there.
    public func export(_ object: ExportedObject) { objects.add(object) }

    public func unexport(_ path: ObjectPath) { objects.remove(path) }

    /// Sends a signal. Throws `InvalidArgs` for an invalid name or value; one with thousands of values is
    /// built off the loop, in its place among the messages sent (a value libdbus would refuse drops it then).
    public func emitSignal(path: ObjectPath, interface: String, name: String, arguments: [DBusValue] = []) throws {
        guard arguments.areLarge else {
            return send(try Message.signal(path: path, interface: interface, name: name, arguments: arguments))
        }
        try Names.checkInterface(interface)
        try Names.checkMember(name)
        let signal = HandOver((path, interface, name, arguments))
        send(to: nil) { try? Message.signal(path: signal.value.0, interface: signal.value.1, name: signal.value.2,
                                            arguments: signal.value.3) }
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged(s a{sv} as)`.
    public func emitPropertiesChanged(path: ObjectPath, interface: String, changed: [String: DBusValue],
                                      invalidated: [String] = []) throws {
        try emitSignal(path: path, interface: StandardInterface.properties, name: "PropertiesChanged",
                       arguments: [.string(interface), .variantDictionary(changed), .stringArray(invalidated)])
    }

    /// Writes queued messages now (`dbus_connection_flush`), for a client about to exit.
    public func flush() { dbus_connection_flush(raw) }

    func scheduleDispatch() { attachment?.scheduleDispatch() }

    /// Answers `call` with `values` (or with the error they make), unless it asked for no reply. A reply
    /// of thousands of values (the ids of 100 000 queued tracks) is built off the loop, in its place among
    /// what is sent.
    func reply(to call: Message, with values: [DBusValue]) {
        guard call.expectsReply else { return }
        guard values.areLarge else { return send(call.reply(values)) }
        let work = HandOver((call, values))
        send(to: call.sender) { work.value.0.reply(work.value.1) }
    }

    /// Answers `call` with a reply already built (`Message.methodReturn` and the like), unless it asked for none.
    func reply(to call: Message, built reply: Message) {
        if call.expectsReply { send(reply) }
    }

    /// Answers `call` with `error`, unless it asked for no reply.
    func reply(to call: Message, with error: DBusError) {
        if call.expectsReply { send(call.errorReply(error)) }
    }

    func send(_ message: Message) {
        if !outgoing.isEmpty {
            guard outgoing.admit(message, to: message.destination) != nil else { return }
        }
        dbus_connection_send(raw, message.raw, nil)
    }

    /// Sends what `build` makes on a thread of its own (nothing, if it makes nothing), in the order of
    /// `send` calls: the loop goes on meanwhile, and messages to `destination` (`nil`: a signal, to
    /// everyone) or to everyone wait for it (`OutgoingOrder`). `build` must not touch the loop's state.
    func send(to destination: String?, buildingOffTheLoop build: @escaping () -> Message?) {
        let ticket = outgoing.reserve(to: destination)
        let work = HandOver(build)
        Self.builder.async {
            let built = HandOver(work.value())
            EventLoop.main.post { [weak self] in
                guard let self, !self.closed else { return }
                for message in self.outgoing.fill(ticket, with: built.value) { dbus_connection_send(self.raw, message.raw, nil) }
            }
        }
    }

    /// One function value, so `dbus_connection_remove_filter` finds what `add_filter` added (else libdbus aborts).
    private static let filterFunction: DBusHandleMessageFunction = { _, message, data in
        Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue().filter(message!)
    }

    /// Every incoming message passes here during `dbus_connection_dispatch`, after libdbus has answered
    /// `org.freedesktop.DBus.Peer` calls itself.
    private func filter(_ raw: OpaquePointer) -> DBusHandlerResult {
        dbus_message_ref(raw)
        let message = Message(owning: raw)
        switch message.type {
        case Message.Kind.methodCall:
            objects.handle(message, on: self)
            return DBUS_HANDLER_RESULT_HANDLED
        case Message.Kind.signal:
            if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected" {
                onDisconnect?()
                onDisconnect = nil
                return DBUS_HANDLER_RESULT_HANDLED
            }
            signals.deliver(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}

/// The `DBusError` out-parameter convention of libdbus, turned into a thrown `DBusError`.
enum CError {
    static func check(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> Bool) throws {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let succeeded = body(&error)
        if dbus_error_is_set(&error) != 0 {
            defer { dbus_error_free(&error) }
            throw DBusError(name: String(cString: error.name), message: String(cString: error.message))
        }
        if !succeeded { throw DBusError.failed("libdbus call failed without an error") }
    }
}

enum StandardInterface {
    static let properties = "org.freedesktop.DBus.Properties"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"
}
