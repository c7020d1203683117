/// `SavedState` written as JSON, in the layout its `Decodable` form reads (`StateFile.load` decodes it with
/// JSONDecoder, as it does files from earlier versions).
///
/// Foundation's JSONEncoder first builds a tree of every value: for a queue of 100 000 tracks that
/// peaked at some 250 MB more memory and took about a second of CPU per save. Here the text is handed to
/// the writer `chunkSize` bytes at a time: built whole, a 100 000-track file and the copies its array made
/// as it grew held 10–14 MB more while each save ran (measured), one save in two seconds while a library's
/// tags are being read.
///
/// Format version 2 stores each folder of the queue's URIs once (`folders`), and the tags an album's tracks
/// share once (`sharedTags`); a track names both by number. Both tables follow the queue, so that it is
/// written track by track as the tables fill. 100 000 files of one folder: 7.8 MB in version 1.
enum StateJSON {
    struct NotANumber: Error, CustomStringConvertible {
        let field: String
        var description: String { "cannot save \(field): it is not a finite number" }
    }

    static let chunkSize = 64 * 1024

    /// The whole text in one array (for tests and small states).
    static func encode(_ state: SavedState) throws -> [UInt8] {
        var text: [UInt8] = []
        try encode(state, tracks: { each in state.queue.forEach(each) }, writing: { text += $0 })
        return text
    }

    /// `state` with the queue `tracks` hands over one by one instead of `state.queue`, given to `write` in
    /// pieces of about `chunkSize` bytes; the first error `write` throws ends the encoding.
    static func encode(_ state: SavedState, tracks: ((SavedTrack) -> Void) -> Void,
                       writing write: ([UInt8]) throws -> Void) throws {
        var out = JSONBytes()
        out.open("{")
        out.key("version"); out.number(state.version)
        var folders = Numbering<Substring>(), shared = Numbering<SharedTrackTags>()
        var failure: Error?
        out.key("queue"); out.open("[")
        // Both closures are only called during this call; Swift cannot tell, hence withoutActuallyEscaping.
        withoutActuallyEscaping(write) { write in
            tracks { track in
                guard failure == nil else { return }
                track.write(to: &out, folders: &folders, shared: &shared)
                guard out.count >= chunkSize else { return }
                do { try write(out.take()) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        out.close("]")
        out.key("folders"); out.strings(folders.values)
        out.key("sharedTags"); out.open("[")
        for tags in shared.values { tags.write(to: &out) }
        out.close("]")
        if let index = state.currentIndex { out.key("currentIndex"); out.number(index) }
        out.key("positionMicroseconds"); out.number(state.positionMicroseconds)
        out.key("volume"); try out.number(state.volume, field: "the volume")
        out.key("rate"); try out.number(state.rate, field: "the rate")
        out.key("loopMode"); out.string(state.loopMode)
        out.key("shuffle"); out.boolean(state.shuffle)
        out.key("wasPlaying"); out.boolean(state.wasPlaying)
        if let revision = state.revision { out.key("revision"); out.string(revision) }
        if let sleepTimer = state.sleepTimer { out.key("sleepTimer"); out.string(sleepTimer) }
        if let deadline = state.sleepDeadlineMicroseconds { out.key("sleepDeadlineMicroseconds"); out.number(deadline) }
        if let output = state.output { out.key("output"); out.string(output) }
        if let equalizer = state.equalizer {
            out.key("equalizer"); out.open("[")
            for gain in equalizer { try out.number(gain, field: "an equaliser gain") }
            out.close("]")
        }
        if let preset = state.equalizerPreset { out.key("equalizerPreset"); out.string(preset) }
        if let seconds = state.crossfadeSeconds { out.key("crossfadeSeconds"); try out.number(seconds, field: "the crossfade") }
        out.close("}")
        try write(out.take())
    }

    /// The mark in the layout its `Codable` form reads. Written while playing, where Foundation's
    /// JSONEncoder would be the only encoder in use and its code resident for that alone.
    static func encode(_ mark: PositionMark) -> [UInt8] {
        var out = JSONBytes()
        out.open("{")
        out.key("revision"); out.string(mark.revision)
        if let index = mark.currentIndex { out.key("currentIndex"); out.number(index) }
        out.key("positionMicroseconds"); out.number(mark.positionMicroseconds)
        out.key("wasPlaying"); out.boolean(mark.wasPlaying)
        out.close("}")
        return out.take()
    }
}

extension SavedTrack {
    /// The URI is split at its last "/" without a copy: a save of 100 000 tracks runs beside the loop, and
    /// every allocation here takes the one malloc arena both share.
    fileprivate func write(to out: inout JSONBytes, folders: inout Numbering<Substring>,
                           shared: inout Numbering<SharedTrackTags>) {
        let split = uri.lastIndex(of: "/").map { uri.index(after: $0) } ?? uri.startIndex
        out.open("{")
        out.key("f"); out.number(folders.number(of: uri[..<split]))
        out.key("n"); out.string(uri[split...])
        if let metadata {
            let tags = SharedTrackTags(metadata)
            if !tags.isEmpty { out.key("s"); out.number(shared.number(of: tags)) }
            if let title = metadata.title { out.key("title"); out.string(title) }
            if let trackNumber = metadata.trackNumber { out.key("trackNumber"); out.number(trackNumber) }
            if let length = metadata.lengthMicroseconds { out.key("lengthMicroseconds"); out.number(length) }
            if let artURL = metadata.artURL { out.key("artURL"); out.string(artURL) }
        }
        out.close("}")
    }
}

extension SharedTrackTags {
    /// Empty lists and unknown values are left out.
    fileprivate func write(to out: inout JSONBytes) {
        out.open("{")
        if let album { out.key("album"); out.string(album) }
        if !artists.isEmpty { out.key("artists"); out.strings(artists) }
        if !albumArtists.isEmpty { out.key("albumArtists"); out.strings(albumArtists) }
        if let discNumber { out.key("discNumber"); out.number(discNumber) }
        out.close("}")
    }
}

/// Numbers values in the order they are first seen.
private struct Numbering<Value: Hashable> {
    private(set) var values: [Value] = []
    private var numbers: [Value: Int] = [:]

    mutating func number(of value: Value) -> Int {
        if let known = numbers[value] { return known }
        numbers[value] = values.count
        values.append(value)
        return values.count - 1
    }
}

/// JSON text being written; `separate()` puts the comma between members and elements. `take()` hands over
/// what is written so far and goes on after it.
private struct JSONBytes {
    private var bytes: [UInt8] = []
    /// The last byte handed over by `take()`, for `separate()` when nothing has been written since.
    private var lastTaken: UInt8?
    private var first = true

    var count: Int { bytes.count }

    mutating func take() -> [UInt8] {
        lastTaken = bytes.last ?? lastTaken
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    mutating func open(_ bracket: Unicode.Scalar) {
        separate()
        bytes.append(UInt8(ascii: bracket))
        first = true
    }

    mutating func close(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        first = false
    }

    /// A comma unless this is the first thing in its object or array.
    mutating func separate() {
        if !first, let last = bytes.last ?? lastTaken, last != UInt8(ascii: ":") { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func number<T: BinaryInteger>(_ value: T) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func number(_ value: Double, field: String) throws {
        guard value.isFinite else { throw StateJSON.NotANumber(field: field) }
        separate()
        bytes.append(contentsOf: "\(value)".utf8)
    }

    mutating func boolean(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func strings<Text: StringProtocol>(_ values: [Text]) {
        open("[")
        for value in values { string(value) }
        close("]")
    }

    /// RFC 8259 §7: quotation mark, reverse solidus and control characters are escaped; the rest is UTF-8.
    mutating func string<Text: StringProtocol>(_ value: Text) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
