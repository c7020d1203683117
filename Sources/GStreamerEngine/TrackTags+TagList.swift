import Foundation
import GStreamer
import PlayerCore

extension TrackTags {
    /// Adds what `list` knows (GST_TAG_* names); fields it lacks keep their value, because TAG
    /// messages come in steps (container, then codec, then the full list again).
    mutating func merge(_ list: TagList) {
        title = list.strings("title").first ?? title
        album = list.strings("album").first ?? album
        artists = nonEmpty(list.strings("artist")) ?? artists
        albumArtists = nonEmpty(list.strings("album-artist")) ?? albumArtists
        genres = nonEmpty(list.strings("genre")) ?? genres
        composers = nonEmpty(list.strings("composer")) ?? composers
        trackNumber = list.unsigned("track-number").map(Int.init) ?? trackNumber
        discNumber = list.unsigned("album-disc-number").map(Int.init) ?? discNumber
        if let image = list.sample("image") {
            coverImage = CoverImage(data: image.bytes, mimeType: image.mediaType)
        }
    }

    private func nonEmpty(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }
}

extension TrackTags {
    /// Radio stations send "Artist - Title" as the title (ICY StreamTitle, read by icydemux): when `list`
    /// brings such a title and no artist, split it, so clients show both fields.
    mutating func splitStreamTitle(_ list: TagList) {
        guard list.strings("artist").isEmpty, let raw = list.strings("title").first,
              let dash = raw.range(of: " - ") else { return }
        let artist = raw[..<dash.lowerBound].trimmingCharacters(in: .whitespaces)
        let title = raw[dash.upperBound...].trimmingCharacters(in: .whitespaces)
        guard !artist.isEmpty, !title.isEmpty else { return }
        artists = [artist]
        self.title = title
    }
}
