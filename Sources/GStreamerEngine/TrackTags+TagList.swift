import FoundationEssentials
import GStreamer
import PlayerCore
import PublicText

extension TrackTags {
    /// Adds what `list` knows (GST_TAG_* names); fields it lacks keep their value, because TAG
    /// messages come in steps (container, then codec, then the full list again).
    ///
    /// Tags are anyone's text: each string is bounded and each list cut as `PublicText` says, here where
    /// they enter, so a 1 MB title or 10 000 artists never reach the queue, the state file or the bus.
    /// A cover larger than `CoverImage.maximumByteCount` is left out without being copied;
    /// `includingImage` false skips the cover altogether.
    mutating func merge(_ list: TagList, includingImage: Bool = true) {
        title = Self.first(list, "title") ?? title
        album = Self.first(list, "album") ?? album
        artists = Self.all(list, "artist") ?? artists
        albumArtists = Self.all(list, "album-artist") ?? albumArtists
        genres = Self.all(list, "genre") ?? genres
        composers = Self.all(list, "composer") ?? composers
        trackNumber = list.unsigned("track-number").map(Int.init) ?? trackNumber
        discNumber = list.unsigned("album-disc-number").map(Int.init) ?? discNumber
        if includingImage, let image = list.sample("image", maximumBytes: CoverImage.maximumByteCount) {
            coverImage = CoverImage(data: image.bytes, mimeType: PublicText.bounded(image.mediaType, limit: 255))
        }
    }

    private static func first(_ list: TagList, _ tag: String) -> String? {
        list.strings(tag, limit: 1).first.map { PublicText.bounded($0) }
    }

    private static func all(_ list: TagList, _ tag: String) -> [String]? {
        let values = list.strings(tag, limit: PublicText.maximumListCount)
        return values.isEmpty ? nil : values.map { PublicText.bounded($0) }
    }
}

extension TrackTags {
    /// Radio stations send "Artist - Title" as the title (ICY StreamTitle, read by icydemux): when `list`
    /// brings such a title and no artist, split it, so clients show both fields.
    mutating func splitStreamTitle(_ list: TagList) {
        guard list.strings("artist", limit: 1).isEmpty, let raw = Self.first(list, "title"),
              let dash = raw.firstRange(of: " - ") else { return }
        let artist = raw[..<dash.lowerBound].trimmingWhitespace()
        let title = raw[dash.upperBound...].trimmingWhitespace()
        guard !artist.isEmpty, !title.isEmpty else { return }
        artists = [artist]
        self.title = title
    }
}
