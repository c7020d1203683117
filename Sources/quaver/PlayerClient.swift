import ControlAPI
import DBus

/// quaverd as the CLI sees it: blocking calls to its MPRIS and org.quaver.Quaver1 interfaces.
/// Every D-Bus failure becomes a `CLIError` worded for the user.
final class PlayerClient {
    static let path = ObjectPath(stringLiteral: ControlAPI.objectPath)
    static let noTrack = ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)

    let connection: Connection

    init(busAddress: String?) throws {
        do {
            connection = try busAddress.map { try Connection(address: $0) } ?? Connection.session()
        } catch {
            throw CLIError("cannot reach the D-Bus session bus: \(error)")
        }
    }

    /// Calls a method of quaverd; the bus starts it first when it is D-Bus activatable.
    @discardableResult
    func call(_ interface: String, _ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        do {
            return try connection.call(destination: ControlAPI.busName, path: Self.path, interface: interface,
                                       method: method, arguments: arguments)
        } catch let error as DBusError {
            throw Self.explain(error)
        }
    }

    func get(_ interface: String, _ property: String) throws -> DBusValue {
        try call(ControlAPI.propertiesInterface, "Get", [.string(interface), .string(property)]).first?.unwrapped ?? .string("")
    }

    func set(_ interface: String, _ property: String, _ value: DBusValue) throws {
        try call(ControlAPI.propertiesInterface, "Set", [.string(interface), .string(property), .variant(value)])
    }

    func getAll(_ interface: String) throws -> [String: DBusValue] {
        try call(ControlAPI.propertiesInterface, "GetAll", [.string(interface)]).first?.dictionaryValue ?? [:]
    }

    /// The daemon's absence gets instructions; other errors keep the daemon's own message.
    static func explain(_ error: DBusError) -> CLIError {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.Spawn.ChildExited":
            return CLIError("""
                quaverd is not running (nothing owns \(ControlAPI.busName) on the bus, and D-Bus could not start it).
                Start it with `systemctl --user start quaverd`, or run `quaverd`.
                """)
        case "org.freedesktop.DBus.Error.NoReply":
            return CLIError("quaverd did not answer in time: \(error.message)")
        default:
            return CLIError(error.message.isEmpty ? error.name : error.message)
        }
    }
}
