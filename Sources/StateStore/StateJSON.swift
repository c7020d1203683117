/// `SavedState` written as JSON straight into one byte buffer, in the layout its `Codable` form reads
/// (`StateFile.load` decodes it with JSONDecoder, as it does files from earlier versions).
///
/// Foundation's JSONEncoder first builds a tree of every value: for a queue of 100 000 tracks that
/// peaked at some 250 MB more memory and took about a second of CPU per save.
enum StateJSON {
    struct NotANumber: Error, CustomStringConvertible {
        let field: String
        var description: String { "cannot save \(field): it is not a finite number" }
    }

    static func encode(_ state: SavedState) throws -> [UInt8] {
        try encode(state) { each in state.queue.forEach(each) }
    }

    /// `state` with the queue `tracks` hands over one by one instead of `state.queue`.
    static func encode(_ state: SavedState, tracks: ((SavedTrack) -> Void) -> Void) throws -> [UInt8] {
        var out = JSONBytes()
        out.open("{")
        out.key("version"); out.number(state.version)
        out.key("queue"); out.open("[")
        tracks { track in track.write(to: &out) }
        out.close("]")
        if let index = state.currentIndex { out.key("currentIndex"); out.number(index) }
        out.key("positionMicroseconds"); out.number(state.positionMicroseconds)
        out.key("volume"); try out.number(state.volume, field: "the volume")
        out.key("rate"); try out.number(state.rate, field: "the rate")
        out.key("loopMode"); out.string(state.loopMode)
        out.key("shuffle"); out.boolean(state.shuffle)
        out.key("wasPlaying"); out.boolean(state.wasPlaying)
        if let revision = state.revision { out.key("revision"); out.string(revision) }
        out.close("}")
        return out.bytes
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
        return out.bytes
    }
}

extension SavedTrack {
    fileprivate func write(to out: inout JSONBytes) {
        out.open("{")
        out.key("uri"); out.string(uri)
        if let metadata { out.key("metadata"); metadata.write(to: &out) }
        out.close("}")
    }
}

extension SavedMetadata {
    /// The fields `encode(to:)` writes: empty lists and unknown values are left out.
    fileprivate func write(to out: inout JSONBytes) {
        out.open("{")
        if let title { out.key("title"); out.string(title) }
        if !artists.isEmpty { out.key("artists"); out.strings(artists) }
        if let album { out.key("album"); out.string(album) }
        if !albumArtists.isEmpty { out.key("albumArtists"); out.strings(albumArtists) }
        if let trackNumber { out.key("trackNumber"); out.number(trackNumber) }
        if let discNumber { out.key("discNumber"); out.number(discNumber) }
        if let lengthMicroseconds { out.key("lengthMicroseconds"); out.number(lengthMicroseconds) }
        if let artURL { out.key("artURL"); out.string(artURL) }
        out.close("}")
    }
}

/// JSON text being written; `separate()` puts the comma between members and elements.
private struct JSONBytes {
    var bytes: [UInt8] = []
    private var first = true

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
        if !first, let last = bytes.last, last != UInt8(ascii: ":") { bytes.append(UInt8(ascii: ",")) }
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

    mutating func strings(_ values: [String]) {
        open("[")
        for value in values { string(value) }
        close("]")
    }

    /// RFC 8259 §7: quotation mark, reverse solidus and control characters are escaped; the rest is UTF-8.
    mutating func string(_ value: String) {
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
