// TagLib: reading a music file's tags without decoding it, through CTagLib (TagLib 1.13's C++ PropertyMap
// behind a small C interface), which CTagLibLoader loads at the first read. A wrapper that owns its C: nothing
// else imports CTagLibLoader.
import CTagLibLoader

/// What TagLib read from one file: every tag value by TagLib's unified key (`TITLE`, `ALBUMARTIST`,
/// `MUSICBRAINZ_TRACKID`, `REPLAYGAIN_TRACK_GAIN`, …, upper case), the length, and whether a cover is embedded.
public struct FileTags: Equatable, Sendable {
    public var values: [String: [String]] = [:]
    public var lengthMilliseconds = 0
    public var hasCover = false

    public init(values: [String: [String]] = [:], lengthMilliseconds: Int = 0, hasCover: Bool = false) {
        self.values = values
        self.lengthMilliseconds = lengthMilliseconds
        self.hasCover = hasCover
    }

    /// Why TagLib cannot be used (libquaver-taglib.so missing or broken), loading it if it is not yet; nil when
    /// it can (`quaver_tags_load`).
    public static var unavailableReason: String? {
        quaver_tags_load() == 1 ? nil : String(cString: quaver_tags_load_error())
    }

    /// The first value of `key`, if any.
    public func first(_ key: String) -> String? { values[key]?.first }

    /// Reads the file at `path` (its bytes: Linux names need not be UTF-8; `quaver_taglib_read`). Nil when
    /// TagLib does not know the format or the file cannot be read (gone, unreadable, not what its name says),
    /// or TagLib cannot be loaded (`unavailableReason`).
    /// A file's tags may be anything anyone wrote: each key keeps at most `valuesPerKey` values.
    public static func read(pathBytes: [UInt8], valuesPerKey: Int = 100) -> FileTags? {
        let collector = Collector(valuesPerKey: valuesPerKey)
        var info = quaver_tag_info()
        let readable = withUnsafeTemporaryAllocation(of: CChar.self, capacity: pathBytes.count + 1) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[pathBytes.count] = 0
            let context = Unmanaged.passUnretained(collector).toOpaque()
            return quaver_tags_read(buffer.baseAddress, collectValue, context, &info)
        }
        guard readable == 1 else { return nil }
        return FileTags(values: collector.values, lengthMilliseconds: Int(info.length_ms), hasCover: info.has_cover != 0)
    }
}

/// A picture embedded in a music file: its bytes and the MIME type its tag gives (may be empty or wrong: a tag
/// can say anything; whoever shows it checks the bytes).
public struct EmbeddedPicture: Equatable, Sendable {
    public let data: [UInt8]
    public let mimeType: String

    /// The front cover (else the first picture) of the file at `path` (`quaver_taglib_read_cover`); nil when
    /// there is none, or it is larger than `maximumByteCount`.
    public static func frontCover(pathBytes: [UInt8], maximumByteCount: Int) -> EmbeddedPicture? {
        let box = PictureBox(maximumByteCount: maximumByteCount)
        _ = withUnsafeTemporaryAllocation(of: CChar.self, capacity: pathBytes.count + 1) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[pathBytes.count] = 0
            return quaver_tags_read_cover(buffer.baseAddress, collectPicture, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.picture
    }
}

private final class PictureBox {
    let maximumByteCount: Int
    var picture: EmbeddedPicture?
    init(maximumByteCount: Int) { self.maximumByteCount = maximumByteCount }
}

private let collectPicture: quaver_cover_callback = { data, size, mimeType, context in
    guard let data, let context else { return }
    let box = Unmanaged<PictureBox>.fromOpaque(context).takeUnretainedValue()
    guard size > 0, Int(size) <= box.maximumByteCount else { return }
    box.picture = EmbeddedPicture(data: Array(UnsafeBufferPointer(start: data, count: Int(size))),
                                  mimeType: mimeType.map { String(cString: $0) } ?? "")
}

/// Gathers the values `quaver_taglib_read` reports, during the call only.
private final class Collector {
    let valuesPerKey: Int
    var values: [String: [String]] = [:]
    init(valuesPerKey: Int) { self.valuesPerKey = valuesPerKey }
}

private let collectValue: quaver_tag_value_callback = { key, value, context in
    guard let key, let value, let context else { return }
    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
    let name = String(cString: key).uppercased()
    guard collector.values[name, default: []].count < collector.valuesPerKey else { return }
    collector.values[name, default: []].append(String(cString: value))
}
