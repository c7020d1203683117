import CDBus
import Glibc

/// Type codes: the `DBUS_TYPE_*` macros are invisible to Swift.
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y"), boolean = code("b"), int16 = code("n"), uint16 = code("q")
    static let int32 = code("i"), uint32 = code("u"), int64 = code("x"), uint64 = code("t")
    static let double = code("d"), string = code("s"), objectPath = code("o"), signature = code("g")
    static let unixFD = code("h"), array = code("a"), structure = code("r"), variant = code("v")
    static let dictEntry = code("e")

    private static func code(_ c: Unicode.Scalar) -> Int32 { Int32(UInt8(ascii: c)) }
}

extension [DBusValue] {
    /// Whether a message carrying these is worth building off the loop (`Connection.send(to:buildingOffTheLoop:)`).
    var areLarge: Bool { contains(where: \.isLarge) }
}

extension DBusValue {
    /// An array of thousands of values, alone or in a variant (100 000 track ids took 45 ms to marshal).
    var isLarge: Bool {
        switch unwrapped {
        case .array(_, let elements): return elements.count >= 4096
        case .dictionary(_, _, let entries): return entries.count >= 4096
        default: return false
        }
    }
}

/// Appends values through `DBusMessageIter` (the variadic `dbus_message_append_args` is not callable), each
/// checked against everything libdbus would abort on right before it is written: a bad value throws
/// `InvalidArgs` instead. What was written of the message before it is then of no use: every caller drops
/// that message (an error reply goes out instead, or the caller builds the message again another way).
///
/// One pass: the values were walked once to be checked and once more to be written, which with building
/// GetAll's dictionary first was most of a GetAll's instructions (callgrind). The walk writes into a
/// `ValueSink`: libdbus's iterator, or the recording a `PreparedValue` keeps to write again and again.
enum ValueWriter {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        for case .structure(let fields) in values where fields.isEmpty { throw emptyStructure }
        let signature = values.signature
        guard Names.isValid(signature.rawValue, dbus_signature_validate) else {
            throw DBusError.invalidArgs("'\(signature)' is not a valid message signature (too deep?)")
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { try append(value, to: &iter) }
    }

    /// One `{name: <value in a variant of type>}` entry of the `a{sv}` open at `dictionary`. `type` is a
    /// single complete type (`InterfaceDescription.Property` holds it to that) and `value` has it.
    static func appendEntry(_ name: UnsafePointer<CChar>, _ type: Signature, _ value: DBusValue,
                            to dictionary: inout DBusMessageIter) throws {
        try dictionary.container(TypeCode.dictEntry, nil) { entry in
            try entry.text(name, TypeCode.string)
            try type.rawValue.withCString { signature in
                try entry.container(TypeCode.variant, signature) { variant in try append(value, to: &variant) }
            }
        }
    }

    /// One `{name: <value>}` entry of a basic type other than a string, its variant's signature `signature`.
    static func appendEntry<T: BitwiseCopyable>(_ name: UnsafePointer<CChar>, _ signature: StaticString, _ code: Int32,
                                                _ value: T, to dictionary: inout DBusMessageIter) throws {
        try dictionary.container(TypeCode.dictEntry, nil) { entry in
            try entry.text(name, TypeCode.string)
            try entry.container(TypeCode.variant, signature.cString) { variant in try variant.basic(value, code) }
        }
    }

    /// One `{name: <string>}` entry; a string holding a NUL throws before anything of the entry is written.
    static func appendEntry(_ name: UnsafePointer<CChar>, string: String, to dictionary: inout DBusMessageIter) throws {
        try string.withCString { pointer in
            guard strlen(pointer) == string.utf8.count else { throw containsNUL }
            try dictionary.container(TypeCode.dictEntry, nil) { entry in
                try entry.text(name, TypeCode.string)
                try entry.container(TypeCode.variant, ("s" as StaticString).cString) { variant in
                    try variant.text(pointer, TypeCode.string)
                }
            }
        }
    }

    /// One `{name: <prepared value>}` entry.
    static func appendEntry(_ name: UnsafePointer<CChar>, _ value: PreparedValue, to dictionary: inout DBusMessageIter) throws {
        try dictionary.container(TypeCode.dictEntry, nil) { entry in
            try entry.text(name, TypeCode.string)
            try value.write(inVariantTo: &entry)
        }
    }

    /// Opens an `a{sv}` as the message's only argument and writes its entries with `body`.
    static func appendVariantDictionary(to message: OpaquePointer, _ body: (inout DBusMessageIter) throws -> Void) throws {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        try "{sv}".withCString { try iter.container(TypeCode.array, $0, body) }
    }

    /// `value`, checked, into `sink`.
    static func append<Sink: ValueSink>(_ value: DBusValue, to sink: inout Sink) throws {
        switch value {
        case .byte(let v): try sink.basic(v, TypeCode.byte)
        case .boolean(let v): try sink.basic(dbus_bool_t(v ? 1 : 0), TypeCode.boolean)
        case .int16(let v): try sink.basic(v, TypeCode.int16)
        case .uint16(let v): try sink.basic(v, TypeCode.uint16)
        case .int32(let v): try sink.basic(v, TypeCode.int32)
        case .uint32(let v): try sink.basic(v, TypeCode.uint32)
        case .int64(let v): try sink.basic(v, TypeCode.int64)
        case .uint64(let v): try sink.basic(v, TypeCode.uint64)
        case .double(let v): try sink.basic(v, TypeCode.double)
        case .string(let s): try string(s, &sink)
        case .objectPath(let p): try p.rawValue.withCString { try sink.text($0, TypeCode.objectPath) }  // validated when made
        case .signature(let s): try s.rawValue.withCString { try sink.text($0, TypeCode.signature) }
        case .array(let element, let elements):
            try checkSingle(element)
            try element.rawValue.withCString { signature in
                try sink.container(TypeCode.array, signature) { sub in
                    // By index, not `for e in elements`: the iterator copied each element (callgrind).
                    for index in elements.indices {
                        guard elements[index].hasSignature(element) else {
                            throw DBusError.invalidArgs("array of '\(element)' holds a '\(elements[index].signature)'")
                        }
                        try append(elements[index], to: &sub)
                    }
                }
            }
        case .dictionary(let key, let valueType, let entries):
            try checkDictionary(key, valueType)
            try withEntrySignature(key, valueType) { signature in
                try sink.container(TypeCode.array, signature) { sub in
                    for index in entries.indices { try append(entries[index].key, entries[index].value, key, valueType, to: &sub) }
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw emptyStructure }
            try sink.container(TypeCode.structure, nil) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try withVariantSignature(of: inner) { signature in
                try sink.container(TypeCode.variant, signature) { sub in try append(inner, to: &sub) }
            }
        case .unixFD:
            throw DBusError.notSupported("sending unix file descriptors is not supported")
        }
    }

    /// One entry of a dictionary, its key and value passed apart: passing the entry copied the pair (callgrind).
    private static func append<Sink: ValueSink>(_ entryKey: DBusValue, _ entryValue: DBusValue, _ key: Signature,
                                                _ valueType: Signature, to sink: inout Sink) throws {
        guard entryKey.hasSignature(key), entryValue.hasSignature(valueType) else {
            throw DBusError.invalidArgs("dictionary a{\(key)\(valueType)} holds an entry "
                + "{\(entryKey.signature)\(entryValue.signature)}")
        }
        try sink.container(TypeCode.dictEntry, nil) { pair in
            try append(entryKey, to: &pair)
            try append(entryValue, to: &pair)
        }
    }

    private static func checkDictionary(_ key: Signature, _ valueType: Signature) throws {
        try checkSingle(key)
        try checkSingle(valueType)
        // One type code, and not one that opens a container.
        guard key.rawValue.utf8.count == 1, let code = key.rawValue.utf8.first, !"vay(){}".utf8.contains(code) else {
            throw DBusError.invalidArgs("dictionary key type '\(key)' is not a basic type")
        }
    }

    private static func checkSingle(_ signature: Signature) throws {
        guard signature.oneCode != nil || signature.isSingleCompleteType else { throw notSingle(signature.rawValue) }
    }

    /// libdbus checks a variant's signature too, by aborting: a container's (an array's element type, a
    /// structure's fields, the depth) is ours to check first; one level deep it is valid (`ShortSignature`).
    static func withVariantSignature<R>(of inner: DBusValue, _ body: (UnsafePointer<CChar>) throws -> R) throws -> R {
        if let short = ShortSignature(of: inner) { return try short.withCString(body) }
        let signature = inner.signatureText
        guard Names.isValid(signature, dbus_signature_validate_single) else { throw notSingle(signature) }
        return try signature.withCString(body)
    }

    private static func withEntrySignature(_ key: Signature, _ valueType: Signature,
                                           _ body: (UnsafePointer<CChar>) throws -> Void) throws {
        if let short = ShortSignature(entryOf: key, valueType) { return try short.withCString(body) }
        try ("{" + key.rawValue + valueType.rawValue + "}").withCString(body)
    }

    private static let emptyStructure = DBusError.invalidArgs("empty structures are not allowed")
    private static let containsNUL = DBusError.invalidArgs("string contains NUL")

    private static func notSingle(_ signature: String) -> DBusError {
        DBusError.invalidArgs("'\(signature)' is not a single complete type")
    }

    /// A string, refused if it holds a NUL (`Names.checkString` says why that is the only check), found by
    /// `strlen` on the C string being written rather than by a pass of its own.
    private static func string<Sink: ValueSink>(_ string: String, _ sink: inout Sink) throws {
        try string.withCString { pointer in
            guard strlen(pointer) == string.utf8.count else { throw containsNUL }
            try sink.text(pointer, TypeCode.string)
        }
    }

    static let outOfMemory = DBusError(name: "org.freedesktop.DBus.Error.NoMemory",
                                       message: "out of memory while building a message")
}

extension StaticString {
    /// The literal's NUL-terminated bytes, for libdbus.
    fileprivate var cString: UnsafePointer<CChar> { UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self) }
}

/// Where `ValueWriter` writes a value it has checked.
protocol ValueSink {
    /// A fixed-size basic value (`dbus_bool_t` for a boolean).
    mutating func basic<T: BitwiseCopyable>(_ value: T, _ type: Int32) throws
    /// A string, object path or signature, as a C string alive for the call.
    mutating func text(_ pointer: UnsafePointer<CChar>, _ type: Int32) throws
    /// A container: `signature` (a C string alive for the call) is the contained one of a variant or an
    /// array, nil for a structure or a dictionary entry; `body` writes what it holds.
    mutating func container(_ type: Int32, _ signature: UnsafePointer<CChar>?, _ body: (inout Self) throws -> Void) throws
}

extension DBusMessageIter: ValueSink {
    mutating func basic<T: BitwiseCopyable>(_ value: T, _ type: Int32) throws {
        var copy = value
        guard dbus_message_iter_append_basic(&self, type, &copy) != 0 else { throw ValueWriter.outOfMemory }
    }

    mutating func text(_ pointer: UnsafePointer<CChar>, _ type: Int32) throws {
        var p: UnsafePointer<CChar>? = pointer
        guard dbus_message_iter_append_basic(&self, type, &p) != 0 else { throw ValueWriter.outOfMemory }
    }

    mutating func container(_ type: Int32, _ signature: UnsafePointer<CChar>?, _ body: (inout DBusMessageIter) throws -> Void) throws {
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&self, type, signature, &sub) != 0 else { throw ValueWriter.outOfMemory }
        do { try body(&sub) } catch {
            dbus_message_iter_abandon_container(&self, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&self, &sub) != 0 else { throw ValueWriter.outOfMemory }
    }
}

/// Reads values by the type the iterator reports, so reading can never ask libdbus for the wrong type.
enum ValueReader {
    static func read(_ message: OpaquePointer) throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }  // empty body
        var values: [DBusValue] = []
        repeat { values.append(try read(&iter)) } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) throws -> DBusValue {
        try read(&iter, type: dbus_message_iter_get_arg_type(&iter))
    }

    /// The value at `iter`, whose type code the caller has just asked libdbus for.
    private static func read(_ iter: inout DBusMessageIter, type: Int32) throws -> DBusValue {
        switch type {
        case TypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case TypeCode.double: return .double(basic(&iter, Double(0)))
        case TypeCode.string: return .string(try text(&iter))
        case TypeCode.objectPath: return .objectPath(ObjectPath(trusted: try text(&iter)))
        case TypeCode.signature: return .signature(Signature(trusted: try text(&iter)))
        case TypeCode.array: return try array(&iter)
        case TypeCode.structure, TypeCode.dictEntry: return .structure(try elements(&iter))
        case TypeCode.variant:
            // Exactly one value inside: libdbus validated the message before we see it.
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .variant(try read(&inner))
        case TypeCode.unixFD:
            // libdbus hands us a duplicate (dbus_message_iter_get_basic with 'h'): it is ours to close.
            return .unixFD(ReceivedFileDescriptor(owning: basic(&iter, Int32(-1))))
        default:
            throw DBusError.invalidArgs("unexpected type code \(type)")
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    /// Longer strings are refused (InvalidArgs) before they are copied: nothing quaverd is sent needs more
    /// (a URI is at most 64 KiB), and a client's 100 MB string was another 100 MB of memory and a copy on
    /// the loop, after libdbus had already spent 0.15 s validating it.
    static let maximumStringBytes = 1 << 20

    private static func text(_ iter: inout DBusMessageIter) throws -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        guard let pointer else { return "" }
        guard strnlen(pointer, maximumStringBytes + 1) <= maximumStringBytes else {
            throw DBusError.invalidArgs("a string of more than \(maximumStringBytes) bytes")
        }
        return String(cString: pointer)
    }

    /// Calls `body` on each element of the container at `iter`, with its type code.
    private static func forEachElement(_ iter: inout DBusMessageIter,
                                       _ body: (inout DBusMessageIter, Int32) throws -> Void) rethrows {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        while case let type = dbus_message_iter_get_arg_type(&sub), type != TypeCode.invalid {
            try body(&sub, type)
            dbus_message_iter_next(&sub)
        }
    }

    /// The elements of an `as` or `ao`, read without asking each one's type: an AddTracks of 100 000 URIs
    /// is decoded in the turn that dispatches it.
    private static func texts(_ iter: inout DBusMessageIter, objectPaths: Bool) throws -> [DBusValue] {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var values: [DBusValue] = []
        guard dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid else { return values }
        repeat {
            values.append(objectPaths ? .objectPath(ObjectPath(trusted: try text(&sub))) : .string(try text(&sub)))
        } while dbus_message_iter_next(&sub) != 0
        return values
    }

    /// Every element of the container at `iter`.
    private static func elements(_ iter: inout DBusMessageIter) throws -> [DBusValue] {
        var values: [DBusValue] = []
        try forEachElement(&iter) { element, type in values.append(try read(&element, type: type)) }
        return values
    }

    private static func array(_ iter: inout DBusMessageIter) throws -> DBusValue {
        // The element type is known even when the array is empty.
        let elementType = dbus_message_iter_get_element_type(&iter)
        if elementType == TypeCode.string || elementType == TypeCode.objectPath {
            return .array(element: elementSignature(&iter, elementType), try texts(&iter, objectPaths: elementType == TypeCode.objectPath))
        }
        guard elementType == TypeCode.dictEntry else {
            return .array(element: elementSignature(&iter, elementType), try elements(&iter))
        }
        let inner = signature(&iter).dropFirst(2).dropLast()  // "a{kv}" → "kv", the key is one basic type code
        let key = Signature(trusted: String(inner.prefix(1)))
        let value = Signature(trusted: String(inner.dropFirst()))
        var entries: [(key: DBusValue, value: DBusValue)] = []
        try forEachElement(&iter) { entry, _ in
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&entry, &pair)
            let key = try read(&pair)
            dbus_message_iter_next(&pair)
            entries.append((key: key, value: try read(&pair)))
        }
        return .dictionary(key: key, value: value, entries)
    }

    /// One type code for a basic or variant element; only a container element needs the whole signature
    /// (`dbus_message_iter_get_signature` allocates and copies it).
    private static func elementSignature(_ iter: inout DBusMessageIter, _ type: Int32) -> Signature {
        guard type == TypeCode.array || type == TypeCode.structure else {
            return Signature(trusted: String(UnicodeScalar(UInt8(type))))
        }
        return Signature(trusted: String(signature(&iter).dropFirst()))
    }

    private static func signature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
