/// Where a text lives in `PackedTexts.bytes`: a 32-bit offset and a 16-bit length, so that a queue entry
/// stores both its spans in 12 bytes (`QueueSlot.Spans`).
struct TextSpan: Equatable, Sendable {
    var offset: UInt32
    var count: UInt16
    /// No text (a track without a title).
    static let absent = TextSpan(offset: .max, count: 0)

    var range: Range<Int> { Int(offset)..<Int(offset) + Int(count) }
}

/// The queue's texts one after another in one byte array, and the folders of its URIs each stored once.
///
/// A Swift string of its own costs a heap block (a 32-byte header and the bytes, rounded up by malloc) for
/// every URI and every title longer than 15 bytes; 100 000 of them are 200 000 small blocks that also keep
/// freed memory around them from going back to the system. Here a URI costs its file name's bytes (its
/// folder is shared with the rest of the album) and a title its own bytes.
///
/// Texts are never changed in place: a replaced title or a removed track leaves its bytes unused, and
/// `compacted(keeping:)` writes the live ones into a new array once they are the smaller part.
///
/// The array holds at most `capacityLimit` bytes (4 GiB, some 60 million tracks of a library): a text that
/// would end beyond it is not kept (`append` gives `.absent`) and a batch is not taken (`canAbsorb`).
/// A text is at most `textLimit` bytes (64 KiB; tags are cut far shorter where they enter): a longer
/// title is cut at the last whole character before it, and the part of a longer URI beyond it is stored
/// with the folder.
struct PackedTexts: Sendable {
    static let capacityLimit = Int(UInt32.max - 1)
    static let textLimit = Int(UInt16.max)

    private(set) var bytes: [UInt8] = []
    /// Number 0 is the empty folder (a URI without a "/").
    private var folders = InternTable(first: "")
    /// Bytes no entry points at any more.
    private(set) var unusedBytes = 0

    mutating func append(_ text: String?) -> TextSpan {
        guard let text else { return .absent }
        let utf8 = text.utf8
        guard utf8.count > Self.textLimit else { return append(utf8) }
        var end = utf8.index(utf8.startIndex, offsetBy: Self.textLimit)
        while end > utf8.startIndex, utf8[end] & 0b1100_0000 == 0b1000_0000 { utf8.formIndex(before: &end) }
        return append(utf8[..<end])
    }

    /// `utf8` is at most `textLimit` bytes.
    private mutating func append<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> TextSpan {
        let offset = bytes.count
        guard utf8.count <= Self.capacityLimit - offset else { return .absent }
        bytes.append(contentsOf: utf8)
        return TextSpan(offset: UInt32(offset), count: UInt16(bytes.count - offset))
    }

    func string(_ span: TextSpan) -> String? {
        guard span != .absent else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            String(decoding: UnsafeBufferPointer(rebasing: all[span.range]), as: UTF8.self)
        }
    }

    /// Stores `uri` as its folder's number (up to and with the last "/") and its file name's bytes; the
    /// file name is its last `textLimit` bytes at most, begun on a whole character.
    mutating func appendURI(_ uri: String) -> (folder: UInt32, name: TextSpan) {
        let utf8 = uri.utf8
        let slash = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        var end = max(slash, utf8.index(utf8.endIndex, offsetBy: -min(utf8.count, Self.textLimit)))
        while end < utf8.endIndex, utf8[end] & 0b1100_0000 == 0b1000_0000 { utf8.formIndex(after: &end) }
        let folder = end == utf8.startIndex ? 0 : folders.index(of: String(decoding: utf8[..<end], as: UTF8.self))
        return (folder, append(utf8[end...]))
    }

    func uri(folder: UInt32, name: TextSpan) -> String {
        folders.values[Int(folder)] + (string(name) ?? "")
    }

    mutating func release(_ span: TextSpan) {
        if span != .absent { unusedBytes += Int(span.count) }
    }

    func canAbsorb(_ other: PackedTexts) -> Bool { other.bytes.count <= Self.capacityLimit - bytes.count }

    /// Adds `other`'s texts after these (`canAbsorb` must hold); returns by how much its offsets move and its
    /// folders' new numbers.
    mutating func absorb(_ other: PackedTexts) -> (shift: UInt32, folders: [UInt32]) {
        let shift = UInt32(bytes.count)
        bytes.append(contentsOf: other.bytes)
        unusedBytes += other.unusedBytes
        return (shift, other.folders.values.map { folders.index(of: $0) })
    }

    /// Drops the room the array keeps for growth, when it is over an eighth of what it holds.
    mutating func shrinkToFit() {
        guard bytes.capacity > bytes.count + bytes.count / 8 else { return }
        let count = bytes.count
        bytes = bytes.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: count) { new, initialized in
                _ = new.initialize(from: old)
                initialized = count
            }
        }
    }

    /// Whether unused bytes are the larger part (and worth a copy: over 64 KiB).
    var isWasteful: Bool { unusedBytes > 64 * 1024 && unusedBytes * 2 > bytes.count }

    /// A new array with only the spans `forEachSpan` visits; each is rewritten to its new place.
    /// Folders stay (a folder costs once, however many of its tracks are removed).
    func compacted(_ forEachSpan: ((inout TextSpan) -> Void) -> Void) -> PackedTexts {
        var kept = PackedTexts()
        kept.folders = folders
        kept.bytes.reserveCapacity(bytes.count - unusedBytes)
        forEachSpan { span in
            guard span != .absent else { return }
            let start = kept.bytes.count
            kept.bytes.append(contentsOf: bytes[span.range])
            span.offset = UInt32(start)
        }
        return kept
    }
}
