import Foundation

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

    /// The last path element without its extension, percent-decoded: `file:///m/01%20Intro.flac` → `01 Intro`.
    public static func fallbackTitle(for uri: String) -> String {
        var path = Substring(uri)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        var name = path.split(separator: "/", omittingEmptySubsequences: true).last ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        let decoded = String(name).removingPercentEncoding ?? String(name)
        return decoded.isEmpty ? uri : decoded
    }

    var engineItem: EngineItem { EngineItem(id: id, uri: uri) }
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
