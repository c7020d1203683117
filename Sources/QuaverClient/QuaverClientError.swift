import ControlAPI
import DBus

/// Why a call to quaverd failed, worded for a person: quaverd's absence comes with how to start it, its
/// own errors keep its message. `dbusError` keeps the name for programs that decide on it.
public enum QuaverClientError: Error, CustomStringConvertible {
    /// The bus itself could not be reached.
    case noBus(String)
    /// Nothing owns quaverd's name, and the bus could not start it.
    case daemonAbsent(DBusError)
    case noReply(DBusError)
    /// quaverd (or the bus) answered with an error.
    case failed(DBusError)

    /// The error names by which the bus says that quaverd is neither there nor startable.
    static let absenceNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.Spawn.ChildExited",
    ]

    public init(_ error: DBusError) {
        if Self.absenceNames.contains(error.name) {
            self = .daemonAbsent(error)
        } else if error.name == "org.freedesktop.DBus.Error.NoReply" {
            self = .noReply(error)
        } else {
            self = .failed(error)
        }
    }

    public var dbusError: DBusError? {
        switch self {
        case .noBus: return nil
        case .daemonAbsent(let error), .noReply(let error), .failed(let error): return error
        }
    }

    /// The D-Bus error's own text (its message, or its name when it has none), as a program passes it on.
    var plainText: String {
        dbusError.map { $0.message.isEmpty ? $0.name : $0.message } ?? description
    }

    public var description: String {
        switch self {
        case .noBus(let reason):
            return "cannot reach the D-Bus session bus: \(reason)"
        case .daemonAbsent:
            return """
                quaverd is not running (nothing owns \(ControlAPI.busName) on the bus, and D-Bus could not start it).
                Start it with `systemctl --user start quaverd`, or run `quaverd`.
                """
        case .noReply(let error):
            return "quaverd did not answer in time: \(error.message)"
        case .failed(let error):
            return error.message.isEmpty ? error.name : error.message
        }
    }
}
