/// A queue entry: where it is, and what is known about it so far.
///
/// Metadata arrives in steps (tags read in the background, then the engine's STREAM_START, TAG and
/// duration messages), so every field but `id` and `uri` may change while the track is queued.
public struct Track: Equatable, Sendable {
    public let id: TrackID
    public let uri: String
    public var tags: TrackTags
    /// `nil` until known, and for live streams.
    public var duration: Duration?
    /// `nil` until the engine says.
    public var isSeekable: Bool?

    public init(id: TrackID, uri: String, tags: TrackTags = TrackTags(),
                duration: Duration? = nil, isSeekable: Bool? = nil) {
        self.id = id
        self.uri = uri
        self.tags = tags
        self.duration = duration
        self.isSeekable = isSeekable
    }

    /// The tagged title, or the file name when the stream has none.
    public var title: String { tags.title ?? Track.fallbackTitle(for: uri) }

    /// The last path element without its extension, percent-decoded: `file:///m/01%20Intro.flac` → `01 Intro`;
    /// the host for a URL without a path (`http://radio.example/` → `radio.example`). Never the userinfo
    /// of the URL, which may hold a password (`http://alice:s3cret@host/`).
    public static func fallbackTitle(for uri: String) -> String {
        var path = Substring(uri)
        var host: Substring = ""
        // The login ends at the last `@` before the first `/`, even past a `?` or `#` (a password typed
        // with a raw `#`), as PublicText masks it: the query and fragment are cut only after.
        if let separator = Track.firstSchemeSeparator(in: path) {
            let authority = path[path.index(separator, offsetBy: 3)...].prefix { $0 != "/" }
            host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
            host = host.prefix { $0 != "?" && $0 != "#" }
            path = path[authority.endIndex...]
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard var name = path.split(separator: "/", omittingEmptySubsequences: true).last else {
            return host.isEmpty ? uri : String(host)
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        let decoded = percentDecoded(name) ?? String(name)
        return decoded.isEmpty ? String(name) : decoded
    }

    /// Where the first `://` starts. The standard library's own search: `firstRange(of:)` is _StringProcessing's,
    /// whose code this call paged into the daemon when a track was opened (docs/reliability.md).
    static func firstSchemeSeparator(in text: Substring) -> Substring.Index? {
        text.indices.first { text[$0...].hasPrefix("://") }
    }

    /// `%XX` escapes decoded; nil when one is malformed or the bytes are not UTF-8, as Foundation's
    /// `removingPercentEncoding` answers.
    static func percentDecoded(_ text: Substring) -> String? {
        guard let bytes = PercentDecoding.bytes(text.utf8) else { return nil }
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil  // invalid UTF-8 came back repaired
    }
}

extension TrackTags {
    /// These tags with every field that `newer` knows replaced by its value.
    /// The engine's TAG messages and a background reader may each know only part of the tags.
    func merging(_ newer: TrackTags) -> TrackTags {
        var merged = self
        merged.title = newer.title ?? title
        merged.album = newer.album ?? album
        merged.trackNumber = newer.trackNumber ?? trackNumber
        merged.discNumber = newer.discNumber ?? discNumber
        merged.coverImage = newer.coverImage ?? coverImage
        if !newer.artists.isEmpty { merged.artists = newer.artists }
        if !newer.albumArtists.isEmpty { merged.albumArtists = newer.albumArtists }
        if !newer.genres.isEmpty { merged.genres = newer.genres }
        if !newer.composers.isEmpty { merged.composers = newer.composers }
        return merged
    }
}
