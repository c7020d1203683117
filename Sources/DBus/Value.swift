/// Any D-Bus value, with enough type information to marshal it even when a container is empty.
/// Unix file descriptors (`h`) can be received (logind's inhibitor locks), not sent.
public enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// `a<element>`; every element must have the signature `element`.
    case array(element: Signature, [DBusValue])
    /// `a{<key><value>}` with entries in wire order; `key` must be a basic type.
    case dictionary(key: Signature, value: Signature, [(key: DBusValue, value: DBusValue)])
    /// `(...)`, at least one field.
    case structure([DBusValue])
    indirect case variant(DBusValue)
    /// `h`, as received: the descriptor is ours to close. Appending one throws `NotSupported`.
    case unixFD(ReceivedFileDescriptor)

    /// The single complete type of this value.
    public var signature: Signature { Signature(trusted: signatureText) }

    var signatureText: String {
        switch self {
        case .array(let element, _): return "a" + element.rawValue
        case .dictionary(let key, let value, _): return "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): return "(" + fields.map(\.signatureText).joined() + ")"
        default: return String(UnicodeScalar(typeCode))
        }
    }

    /// The first code of this value's signature: all of it but for arrays and dictionaries (`a`) and structures (`(`).
    var typeCode: UInt8 {
        switch self {
        case .byte: return UInt8(ascii: "y")
        case .boolean: return UInt8(ascii: "b")
        case .int16: return UInt8(ascii: "n")
        case .uint16: return UInt8(ascii: "q")
        case .int32: return UInt8(ascii: "i")
        case .uint32: return UInt8(ascii: "u")
        case .int64: return UInt8(ascii: "x")
        case .uint64: return UInt8(ascii: "t")
        case .double: return UInt8(ascii: "d")
        case .string: return UInt8(ascii: "s")
        case .objectPath: return UInt8(ascii: "o")
        case .signature: return UInt8(ascii: "g")
        case .array, .dictionary: return UInt8(ascii: "a")
        case .structure: return UInt8(ascii: "(")
        case .variant: return UInt8(ascii: "v")
        case .unixFD: return UInt8(ascii: "h")
        }
    }

    /// Whether this value's signature is `signature`, compared without building the text: checks run for
    /// every value of every message, and most of what they would build is thrown away at once.
    func hasSignature(_ signature: String) -> Bool {
        switch self {
        case .array, .dictionary, .structure:
            var signature = signature
            return signature.withUTF8 { bytes in
                var index = 0
                return matchSignature(bytes, &index) && index == bytes.count
            }
        default:  // one type code each, compared as a byte without making the text
            return signature.utf8.count == 1 && signature.utf8.first == typeCode
        }
    }

    /// `hasSignature` for a `Signature`, whose one code (when it has one) is kept: compared without the text.
    func hasSignature(_ signature: Signature) -> Bool {
        switch self {
        case .array, .dictionary, .structure: return hasSignature(signature.rawValue)
        default: return signature.oneCode == typeCode
        }
    }

    /// Moves `index` past this value's signature in `bytes`; false if it is not there.
    private func matchSignature(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        func take(_ text: String) -> Bool {
            for byte in text.utf8 {
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
        switch self {
        case .array(let element, _):
            return take("a") && take(element.rawValue)
        case .dictionary(let key, let value, _):
            return take("a{") && take(key.rawValue) && take(value.rawValue) && take("}")
        case .structure(let fields):
            return take("(") && fields.allSatisfy { $0.matchSignature(bytes, &index) } && take(")")
        default:
            return take(signatureText)
        }
    }

    public static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case let (.byte(a), .byte(b)): return a == b
        case let (.boolean(a), .boolean(b)): return a == b
        case let (.int16(a), .int16(b)): return a == b
        case let (.uint16(a), .uint16(b)): return a == b
        case let (.int32(a), .int32(b)): return a == b
        case let (.uint32(a), .uint32(b)): return a == b
        case let (.int64(a), .int64(b)): return a == b
        case let (.uint64(a), .uint64(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): return a == b
        case let (.objectPath(a), .objectPath(b)): return a == b
        case let (.signature(a), .signature(b)): return a == b
        case let (.array(ea, a), .array(eb, b)): return ea == eb && a == b
        case let (.dictionary(ka, va, a), .dictionary(kb, vb, b)):
            return ka == kb && va == vb && a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.structure(a), .structure(b)): return a == b
        case let (.variant(a), .variant(b)): return a == b
        case let (.unixFD(a), .unixFD(b)): return a === b
        default: return false
        }
    }
}

// MARK: - Constructors for common shapes

extension DBusValue {
    /// `as`
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(element: .string, strings.map { .string($0) })
    }

    /// `ao`
    public static func objectPathArray(_ paths: [ObjectPath]) -> DBusValue {
        .array(element: .objectPath, paths.map { .objectPath($0) })
    }

    /// `a{sv}`, entries sorted by key so messages are reproducible.
    public static func variantDictionary(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(key: .string, value: .variant, entries.sorted { $0.key < $1.key }
            .map { (key: .string($0.key), value: .variant($0.value)) })
    }
}

// MARK: - Accessors (nil when the value has another type)

extension DBusValue {
    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var stringValue: String? {
        switch unwrapped {
        case .string(let s): return s
        case .objectPath(let p): return p.rawValue
        case .signature(let s): return s.rawValue
        default: return nil
        }
    }

    public var objectPathValue: ObjectPath? {
        if case .objectPath(let p) = unwrapped { return p }
        return nil
    }

    public var fileDescriptorValue: ReceivedFileDescriptor? {
        if case .unixFD(let fd) = unwrapped { return fd }
        return nil
    }

    public var boolValue: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }

    /// Any integer type that fits in Int64.
    public var int64Value: Int64? {
        switch unwrapped {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        default: return nil
        }
    }

    /// `d`, or any integer converted.
    public var doubleValue: Double? {
        if case .double(let d) = unwrapped { return d }
        return int64Value.map(Double.init)
    }

    /// Elements of an array, or fields of a structure.
    public var arrayValue: [DBusValue]? {
        switch unwrapped {
        case .array(_, let elements): return elements
        case .structure(let fields): return fields
        default: return nil
        }
    }

    /// `as` (or `ao`) as Swift strings.
    public var stringArrayValue: [String]? {
        guard let elements = arrayValue else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    /// A dictionary with string keys (`a{sv}`, `a{ss}`…); variant values stay wrapped.
    public var dictionaryValue: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            result[key] = entry.value
        }
        return result
    }
}

extension Array where Element == DBusValue {
    /// The concatenated signature of a message body.
    public var signature: Signature { Signature(trusted: map(\.signatureText).joined()) }

    /// Returns the values if their signature is `expected`, else throws `InvalidArgs` naming both.
    /// Use on replies before picking them apart: a peer may answer anything.
    public func checked(_ expected: Signature) throws -> [DBusValue] {
        let actual = signature
        guard actual == expected else {
            throw DBusError.invalidArgs("expected signature '\(expected)', got '\(actual)'")
        }
        return self
    }
}
