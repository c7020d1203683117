import ControlAPI
import DBus

/// quaverd as its clients see it (the `quaver` CLI, the Snapcast plugin, the benchmarks): calls to its one
/// object's MPRIS and org.quaver.Quaver1 interfaces, blocking or answered later on the loop, and its signals
/// (`QuaverClient+Signals.swift`). The typed members are in `QuaverClient+Interfaces.swift`.
public final class QuaverClient {
    public static let path = ObjectPath(stringLiteral: ControlAPI.objectPath)
    /// The "no track" id: `MoveTrack`'s "to the front", `SetRating`'s "the current track".
    public static let noTrack = ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)

    public let connection: Connection
    /// Seconds a blocking call waits for quaverd's reply.
    public let timeout: Double

    public init(connection: Connection, timeout: Double = 25) {
        self.connection = connection
        self.timeout = timeout
    }

    /// A client on the bus at `busAddress`, or on the session bus.
    public convenience init(busAddress: String?) throws {
        do {
            self.init(connection: try busAddress.map { try Connection(address: $0) } ?? Connection.session())
        } catch {
            throw QuaverClientError.noBus("\(error)")
        }
    }

    /// Calls a method of quaverd and waits for the reply; the bus starts quaverd first when it is D-Bus activatable.
    @discardableResult
    public func call(_ interface: String, _ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        do {
            return try connection.call(destination: ControlAPI.busName, path: Self.path, interface: interface,
                                       method: method, arguments: arguments, timeout: timeout)
        } catch let error as DBusError {
            throw QuaverClientError(error)
        }
    }

    /// A property's value, its variant unwrapped.
    public func get(_ interface: String, _ property: String) throws -> DBusValue {
        try call(ControlAPI.propertiesInterface, "Get", [.string(interface), .string(property)]).first?.unwrapped ?? .string("")
    }

    public func set(_ interface: String, _ property: String, _ value: DBusValue) throws {
        try call(ControlAPI.propertiesInterface, "Set", [.string(interface), .string(property), .variant(value)])
    }

    /// Every property of an interface; an empty map when the reply is not one.
    public func getAll(_ interface: String) throws -> [String: DBusValue] {
        try call(ControlAPI.propertiesInterface, "GetAll", [.string(interface)]).first?.dictionaryValue ?? [:]
    }

    /// Calls a method without blocking: `done` runs later on the loop with the reply or the error.
    public func call(_ interface: String, _ method: String, _ arguments: [DBusValue] = [],
                     done: @escaping (Result<[DBusValue], QuaverClientError>) -> Void) {
        connection.call(destination: ControlAPI.busName, path: Self.path, interface: interface, method: method,
                        arguments: arguments, timeout: timeout) { result in
            done(result.mapError(QuaverClientError.init))
        }
    }

    /// `getAll` without blocking; an empty map when quaverd is gone or the call failed.
    public func getAll(_ interface: String, done: @escaping ([String: DBusValue]) -> Void) {
        call(ControlAPI.propertiesInterface, "GetAll", [.string(interface)]) { result in
            done((try? result.get())?.first?.dictionaryValue ?? [:])
        }
    }

    /// Sets a property without blocking; `done` gets nil or the error.
    public func set(_ interface: String, _ property: String, _ value: DBusValue,
                    done: @escaping (QuaverClientError?) -> Void) {
        call(ControlAPI.propertiesInterface, "Set", [.string(interface), .string(property), .variant(value)]) { result in
            if case .failure(let error) = result { done(error) } else { done(nil) }
        }
    }
}
