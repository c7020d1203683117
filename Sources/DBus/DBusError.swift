/// A D-Bus error: a dotted name and a human message. Method handlers throw it to answer with that
/// error; calls throw it when the peer answered with an error.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String

    /// An invalid `name` becomes `org.freedesktop.DBus.Error.Failed`, since libdbus aborts on invalid error names.
    public init(name: String, message: String) {
        self.name = Names.isValidErrorName(name) ? name : DBusError.failedName
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    static let failedName = "org.freedesktop.DBus.Error.Failed"
    private static func standard(_ suffix: String, _ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error." + suffix, message: message)
    }

    public static func failed(_ message: String) -> DBusError { standard("Failed", message) }
    public static func invalidArgs(_ message: String) -> DBusError { standard("InvalidArgs", message) }
    public static func unknownMethod(_ message: String) -> DBusError { standard("UnknownMethod", message) }
    public static func unknownInterface(_ message: String) -> DBusError { standard("UnknownInterface", message) }
    public static func unknownObject(_ message: String) -> DBusError { standard("UnknownObject", message) }
    public static func unknownProperty(_ message: String) -> DBusError { standard("UnknownProperty", message) }
    public static func propertyReadOnly(_ message: String) -> DBusError { standard("PropertyReadOnly", message) }
    public static func accessDenied(_ message: String) -> DBusError { standard("AccessDenied", message) }
    public static func noReply(_ message: String) -> DBusError { standard("NoReply", message) }
    public static func disconnected(_ message: String) -> DBusError { standard("Disconnected", message) }
    public static func notSupported(_ message: String) -> DBusError { standard("NotSupported", message) }
    public static func limitsExceeded(_ message: String) -> DBusError { standard("LimitsExceeded", message) }
}

/// Failures of the connection itself, distinct from errors a peer sends.
public enum ConnectionError: Error, Equatable, CustomStringConvertible {
    /// `RequestName` with `DO_NOT_QUEUE` answered `EXISTS`: another process owns the name.
    case nameTaken(String)
    /// The bus could not be reached or refused us.
    case cannotConnect(DBusError)

    public var description: String {
        switch self {
        case .nameTaken(let name): return "the name \(name) is already owned by another process"
        case .cannotConnect(let error): return "cannot connect to D-Bus: \(error.message) (\(error.name))"
        }
    }
}
