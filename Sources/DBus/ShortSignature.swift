/// The signature of a value one level deep (`s`, `as`, `ao`, `a{sv}`: what replies hold, GetAll's above all),
/// made as bytes on the stack instead of a `String`, and valid as one complete type without asking libdbus.
///
/// Valid by construction: a `Signature` of one code is one complete type already (validated when made, or read
/// from libdbus), so `a` and one code is too; a dictionary's key is checked to be a basic type when the
/// dictionary is written (`ValueWriter`). libdbus validates a signature through a list whose every link takes
/// a global lock: six validations were 7 000 instructions of each GetAll(Player), and building the texts
/// (`"a" + element`, `"{" + key + value + "}"`) another 2 000.
struct ShortSignature {
    /// Up to five codes and the NUL after them.
    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    private init(_ a: UInt8, _ b: UInt8 = 0, _ c: UInt8 = 0, _ d: UInt8 = 0, _ e: UInt8 = 0) {
        bytes = (a, b, c, d, e, 0)
    }

    /// `value`'s signature, or nil when it is deeper (a structure, an array of arrays…).
    init?(of value: DBusValue) {
        switch value {
        case .array(let element, _):
            guard let code = element.oneCode else { return nil }
            self.init(Self.array, code)
        case .dictionary(let key, let valueType, _):
            guard let entry = ShortSignature(entryOf: key, valueType) else { return nil }
            self.init(Self.array, entry.bytes.0, entry.bytes.1, entry.bytes.2, entry.bytes.3)
        case .structure:
            return nil
        default:
            self.init(value.typeCode)
        }
    }

    /// `{kv}`, the element signature of a dictionary of one-code keys and values; nil for deeper ones.
    init?(entryOf key: Signature, _ valueType: Signature) {
        guard let k = key.oneCode, let v = valueType.oneCode else { return nil }
        self.init(UInt8(ascii: "{"), k, v, UInt8(ascii: "}"))
    }

    func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var copy = bytes
        return try withUnsafeBytes(of: &copy) { raw in try body(raw.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    private static let array = UInt8(ascii: "a")
}
