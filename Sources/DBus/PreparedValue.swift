import CDBus
import Glibc

/// A value checked once and kept as the libdbus calls that write it, to be written into many messages: the
/// current track's Metadata goes into every `GetAll(Player)`, and walking its `DBusValue` again each time
/// (copies and reference counts of the enum's payloads) was most of what quaverd's own code spent on a GetAll.
///
/// Made by `ValueWriter`'s own walk, with every check it makes, into a recording (`ValueRecording`); writing
/// replays the recording, which holds nothing but type codes, the bits of fixed values and offsets into one
/// block of C strings, so nothing is retained or released on the way, and nothing can fail but memory.
public final class PreparedValue {
    /// The value itself: `Get` answers it, and PropertiesChanged compares it.
    public let value: DBusValue
    /// Its single complete type.
    let signature: Signature
    private let steps: ContiguousArray<Step>
    /// The strings the steps write and the variant signature of the value, each ended by a NUL.
    private let texts: UnsafeMutablePointer<CChar>
    private let signatureOffset: Int

    /// Checks `value` as `ValueWriter` does before it writes; throws the same `InvalidArgs`.
    public init(_ value: DBusValue) throws {
        var recording = ValueRecording()
        try ValueWriter.append(value, to: &recording)
        signatureOffset = try ValueWriter.withVariantSignature(of: value) { recording.keep($0) }
        self.value = value
        signature = value.signature
        steps = recording.steps
        texts = .allocate(capacity: recording.texts.count)
        texts.initialize(from: recording.texts, count: recording.texts.count)
    }

    deinit { texts.deallocate() }

    /// Writes the value inside a variant at `iter`.
    func write(inVariantTo iter: inout DBusMessageIter) throws {
        var index = 0
        try iter.container(TypeCode.variant, texts + signatureOffset) { variant in try replay(from: &index, into: &variant) }
    }

    /// Replays steps from `index` into `iter` until the end or the step that closes the container `iter` is in.
    private func replay(from index: inout Int, into iter: inout DBusMessageIter) throws {
        while index < steps.count {
            let step = steps[index]
            index += 1
            switch step.kind {
            case .basic:
                var bits = step.bits
                guard dbus_message_iter_append_basic(&iter, step.code, &bits) != 0 else { throw ValueWriter.outOfMemory }
            case .text:
                try iter.text(texts + step.offset, step.code)
            case .open:
                try iter.container(step.code, step.offset < 0 ? nil : texts + step.offset) { sub in
                    try replay(from: &index, into: &sub)
                }
            case .close:
                return
            }
        }
    }

    /// One libdbus call of the recording.
    struct Step {
        enum Kind: UInt8 { case basic, text, open, close }
        let kind: Kind
        let code: Int32
        /// A basic value's bytes, from the first (as `dbus_message_iter_append_basic` reads them).
        let bits: UInt64
        /// A text's, or an opened container's contained signature's, place in `texts`; -1 for none.
        let offset: Int
    }
}

/// What `ValueWriter` writes, kept as `PreparedValue.Step`s and one block of C strings.
struct ValueRecording: ValueSink {
    var steps: ContiguousArray<PreparedValue.Step> = []
    var texts: [CChar] = []

    mutating func basic<T: BitwiseCopyable>(_ value: T, _ type: Int32) throws {
        precondition(MemoryLayout<T>.size <= MemoryLayout<UInt64>.size, "a basic D-Bus value is at most 8 bytes")
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: T.self) }
        steps.append(.init(kind: .basic, code: type, bits: bits, offset: -1))
    }

    mutating func text(_ pointer: UnsafePointer<CChar>, _ type: Int32) throws {
        steps.append(.init(kind: .text, code: type, bits: 0, offset: keep(pointer)))
    }

    mutating func container(_ type: Int32, _ signature: UnsafePointer<CChar>?,
                            _ body: (inout ValueRecording) throws -> Void) throws {
        steps.append(.init(kind: .open, code: type, bits: 0, offset: signature.map { keep($0) } ?? -1))
        try body(&self)
        steps.append(.init(kind: .close, code: type, bits: 0, offset: -1))
    }

    /// Copies a C string into `texts`; its offset there.
    mutating func keep(_ pointer: UnsafePointer<CChar>) -> Int {
        let offset = texts.count
        texts.append(contentsOf: UnsafeBufferPointer(start: pointer, count: strlen(pointer) + 1))
        return offset
    }
}
