import CDBus
import Glibc

/// The last GetAll reply of one interface, answered again while no value in it changed but fixed-size ones.
///
/// A player's GetAll answers the same map call after call, but for Position, which moves on while it plays.
/// Writing the map through libdbus's iterators costs some 120 000 instructions a call, nearly all of it libdbus
/// validating each variant's signature again (a global lock for every link of the list it validates with). So
/// a reply whose texts and prepared values (`PreparedValue`, the Metadata) are the ones written last, and whose
/// getters all succeed or fail as before, is a copy of the last one (`dbus_message_copy`) addressed to the
/// caller, with its booleans, doubles and 64-bit integers written in place: those are the same size whatever
/// their value, so nothing else in the message moves.
///
/// Where they are is found once, when the reply is kept, from the marshalling the specification fixes: a
/// variant's value follows its one-code signature, aligned to its size. libdbus answers a string it holds by
/// pointing into the message, which gives each entry's key; a reply is kept only when every value found that
/// way reads back as what libdbus reads there, and a copy is written only when its first key lies where the
/// kept one's did (its own byte order, aligned the same): anything else builds the reply anew.
///
/// The copy keeps the kept reply's destination when the caller is the one it answered: libdbus rewrites a
/// header's text field through its generic type writer, 16 700 instructions of the 92 000 a kept answer took
/// (callgrind), where a shell or a status bar asks again and again from one connection. A copy answering
/// another caller is kept in its place, its body the same.
final class KeptReply {
    /// What a property's getter gave for this GetAll.
    enum Read {
        case absent
        case boolean(Bool)
        case double(Double)
        case int64(Int64)
        case string(String)
        case prepared(PreparedValue)
        /// Any other value: a reply holding one is not kept.
        case value(DBusValue)
    }

    /// What the kept reply holds for a property: nothing, a fixed-size value at a place (bytes from the first
    /// key), or a text or prepared value that must be the same for the reply to be answered again.
    private enum Kept {
        case absent
        case fixed(place: Int)
        case string(String)
        case prepared(PreparedValue)
    }

    /// The reply as it was last sent to a new caller (libdbus locked it then): only ever copied.
    private var message: Message
    private let kept: [Kept]

    /// Keeps `message`, the reply just written from `reads` (one per property, in the reply's order), or
    /// returns nil when it holds another kind of value or its layout is not the one expected.
    init?(_ message: Message, _ reads: [Read]) {
        // Before walking the reply: an interface holding such a value (Quaver1, the root, TrackList) is never kept.
        guard !reads.contains(where: { if case .value = $0 { true } else { false } }) else { return nil }
        var entries = DBusMessageIter()
        guard let first = Self.firstEntry(of: message, &entries) else { return nil }
        var kept: [Kept] = []
        kept.reserveCapacity(reads.count)
        for read in reads {
            if case .absent = read {
                kept.append(.absent)
                continue
            }
            guard dbus_message_iter_get_arg_type(&entries) == TypeCode.dictEntry else { return nil }
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&entries, &entry)
            var key: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&entry, &key)
            guard let key, dbus_message_iter_next(&entry) != 0 else { return nil }
            switch read {
            case .boolean(let value):
                guard let place = Self.place(of: dbus_bool_t(value ? 1 : 0), TypeCode.boolean, after: key, &entry, from: first)
                else { return nil }
                kept.append(.fixed(place: place))
            case .double(let value):
                guard let place = Self.place(of: value, TypeCode.double, after: key, &entry, from: first) else { return nil }
                kept.append(.fixed(place: place))
            case .int64(let value):
                guard let place = Self.place(of: value, TypeCode.int64, after: key, &entry, from: first) else { return nil }
                kept.append(.fixed(place: place))
            case .string(let text): kept.append(.string(text))
            case .prepared(let value): kept.append(.prepared(value))
            case .absent, .value: return nil  // not reached: absent goes on above, a value was refused first
            }
            dbus_message_iter_next(&entries)
        }
        guard dbus_message_iter_get_arg_type(&entries) == TypeCode.invalid else { return nil }
        self.message = message
        self.kept = kept
    }

    /// A copy of the kept reply answering `call`, with the fixed-size values of `reads` written in, or nil when
    /// `reads` differ from the kept reply's in anything else.
    func answer(to call: Message, _ reads: [Read]) -> Message? {
        guard reads.count == kept.count else { return nil }
        for index in reads.indices {
            switch (reads[index], kept[index]) {
            case (.absent, .absent), (.boolean, .fixed), (.double, .fixed), (.int64, .fixed): continue
            case (.string(let now), .string(let then)) where now == then: continue
            case (.prepared(let now), .prepared(let then)) where now === then: continue
            default: return nil
            }
        }
        guard let raw = dbus_message_copy(message.raw) else { return nil }
        let reply = Message(owning: raw)
        let caller = dbus_message_get_sender(call.raw), answered = dbus_message_get_destination(raw)
        let sameCaller = if let caller, let answered { strcmp(caller, answered) == 0 } else { caller == answered }
        guard dbus_message_set_reply_serial(raw, dbus_message_get_serial(call.raw)) != 0,
              sameCaller || dbus_message_set_destination(raw, caller) != 0 else { return nil }
        var entries = DBusMessageIter()
        guard let first = Self.firstEntry(of: reply, &entries) else { return nil }
        // The first key's text, as libdbus gives it to be read; the copy is ours until it is sent.
        let base = UnsafeMutableRawPointer(mutating: first)
        for index in reads.indices {
            guard case .fixed(let place) = kept[index] else { continue }
            switch reads[index] {
            case .boolean(let value): base.storeBytes(of: dbus_bool_t(value ? 1 : 0), toByteOffset: place, as: dbus_bool_t.self)
            case .double(let value): base.storeBytes(of: value, toByteOffset: place, as: Double.self)
            case .int64(let value): base.storeBytes(of: value, toByteOffset: place, as: Int64.self)
            default: return nil
            }
        }
        if !sameCaller { message = reply }
        return reply
    }

    /// The first key of the `a{sv}` that is `message`'s only argument, with `entries` left at its entry; nil
    /// unless it lies where the specification puts it in a message of this machine's byte order: after the
    /// array's length, at the 8-byte boundary of the first entry, after the key's own length (so the text
    /// is 4 bytes past an 8-byte boundary, as libdbus keeps its buffers aligned to 8), that length
    /// reading as the key's in this machine's byte order.
    private static func firstEntry(of message: Message, _ entries: inout DBusMessageIter) -> UnsafePointer<CChar>? {
        var top = DBusMessageIter()
        guard dbus_message_iter_init(message.raw, &top) != 0, dbus_message_iter_get_arg_type(&top) == TypeCode.array else {
            return nil
        }
        dbus_message_iter_recurse(&top, &entries)
        guard dbus_message_iter_get_arg_type(&entries) == TypeCode.dictEntry else { return nil }
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&entries, &entry)
        guard dbus_message_iter_get_arg_type(&entry) == TypeCode.string else { return nil }
        var key: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&entry, &key)
        guard let key, UInt(bitPattern: key) % 8 == 4,
              UnsafeRawPointer(key - 4).load(as: UInt32.self) == UInt32(strlen(key)) else { return nil }
        return key
    }

    /// Where the variant after `key` (`entry` is at it) holds `value`, in bytes from `first`: after the key's
    /// NUL, the signature's length 1, its code and NUL, then the value aligned to its size. Nil unless the
    /// signature is there and the value read there is the one libdbus reads and the one written.
    private static func place<T: BitwiseCopyable & Equatable>(of value: T, _ code: Int32, after key: UnsafePointer<CChar>,
                                                            _ entry: inout DBusMessageIter,
                                                            from first: UnsafePointer<CChar>) -> Int? {
        let signature = UnsafeRawPointer(key + strlen(key) + 1)
        guard signature.load(as: UInt8.self) == 1, signature.load(fromByteOffset: 1, as: UInt8.self) == UInt8(code),
              signature.load(fromByteOffset: 2, as: UInt8.self) == 0 else { return nil }
        let size = MemoryLayout<T>.size
        let start = UInt(bitPattern: signature + 3)
        let address = UnsafeRawPointer(bitPattern: (start + UInt(size) - 1) / UInt(size) * UInt(size))!
        var variant = DBusMessageIter()
        dbus_message_iter_recurse(&entry, &variant)
        guard dbus_message_iter_get_arg_type(&variant) == code else { return nil }
        var read = value
        dbus_message_iter_get_basic(&variant, &read)
        guard read == value, address.loadUnaligned(as: T.self) == value else { return nil }
        return address - UnsafeRawPointer(first)
    }
}
