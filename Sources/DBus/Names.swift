import CDBus
import Glibc

/// A validated D-Bus object path (`dbus_validate_path`): appending an invalid one makes libdbus abort.
public struct ObjectPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    /// Throws `InvalidArgs` for anything that is not an object path.
    public init(_ path: String) throws {
        rawValue = try Names.require(path, dbus_validate_path, "object path")
    }

    /// For literals in code only: an invalid literal is a programming error.
    public init(stringLiteral path: String) {
        guard let valid = try? ObjectPath(path) else { preconditionFailure("invalid object path literal \(path)") }
        self = valid
    }

    /// For paths libdbus already validated (incoming messages).
    init(trusted path: String) { rawValue = path }

    /// The child named by the decimal digits of `number` (`/a/b` → `/a/b/42`): valid by construction, so
    /// not checked again — a reply or signal naming 100 000 queue entries builds as many of these.
    public func appending(number: UInt64) -> ObjectPath {
        ObjectPath(trusted: (rawValue == "/" ? "/" : rawValue + "/") + String(number))
    }

    public var description: String { rawValue }
    public static let root = ObjectPath(trusted: "/")
}

/// A validated D-Bus type signature (`dbus_signature_validate`): zero or more complete types.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    /// The type code of a signature of one code, nil when it has more: what every value written is compared with,
    /// kept so that the comparison does not walk the text (`DBusValue.hasSignature`, `ShortSignature`).
    let oneCode: UInt8?

    public init(_ signature: String) throws {
        self.init(trusted: try Names.require(signature, dbus_signature_validate, "D-Bus signature"))
    }

    public init(stringLiteral signature: String) {
        guard let valid = try? Signature(signature) else { preconditionFailure("invalid signature literal \(signature)") }
        self = valid
    }

    init(trusted signature: String) {
        rawValue = signature
        oneCode = signature.utf8.count == 1 ? signature.utf8.first : nil
    }

    /// Whether this is exactly one complete type (`dbus_signature_validate_single`), as variants need.
    public var isSingleCompleteType: Bool { Names.isValid(rawValue, dbus_signature_validate_single) }

    public var description: String { rawValue }

    // Element and key types of the values built on every reply, validated once here instead of at each
    // use of a literal (each literal is checked by libdbus).
    static let string: Signature = "s", objectPath: Signature = "o", variant: Signature = "v"
}

/// Checks of names before they reach libdbus, whose `_dbus_return_if_fail` checks abort the process.
enum Names {
    typealias Validator = (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t

    /// A NUL inside a Swift string would silently truncate the C string, so it is refused first: the C
    /// string is then shorter than the Swift one (strlen rather than a walk over `utf8`, which cost more
    /// than libdbus's own check on every string of every message).
    static func isValid(_ text: String, _ validate: Validator) -> Bool {
        text.withCString { strlen($0) == text.utf8.count && validate($0, nil) != 0 }
    }

    /// `text` if `validate` accepts it, else `InvalidArgs` saying it is not a valid `what`.
    @discardableResult
    static func require(_ text: String, _ validate: Validator, _ what: String) throws -> String {
        guard isValid(text, validate) else { throw DBusError.invalidArgs("'\(text)' is not a valid \(what)") }
        return text
    }

    static func checkInterface(_ name: String) throws { try require(name, dbus_validate_interface, "interface name") }
    static func checkMember(_ name: String) throws { try require(name, dbus_validate_member, "member name") }
    static func checkBusName(_ name: String) throws { try require(name, dbus_validate_bus_name, "bus name") }

    static func isValidErrorName(_ name: String) -> Bool { isValid(name, dbus_validate_error_name) }

    /// Strings in message bodies: valid UTF-8 as libdbus defines it, and no NUL. A Swift string is always
    /// valid UTF-8 of Unicode scalars (never a surrogate, never beyond U+10FFFF), and libdbus 1.14 accepts
    /// every such text (noncharacters and control characters too: measured), so only a NUL is looked for,
    /// not the whole text run through libdbus once more (every string of every reply, GetAll's included).
    static func checkString(_ text: String) throws {
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { $0.isEmpty ? false : memchr($0.baseAddress!, 0, $0.count) != nil }
            ?? text.utf8.contains(0)
        guard !hasNUL else { throw DBusError.invalidArgs("string contains NUL") }
    }
}
