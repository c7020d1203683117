import PlayerCore
import PublicText

/// What a track-change notification shows: the title as summary, "artist — album" as body, and the cover.
///
/// The Desktop Notifications spec lets the body carry a small subset of HTML (`<b>`, `<i>`, `<a href>`,
/// `<img>`), so a tag such as `Tom & Jerry <live>` must reach the server as `Tom &amp; Jerry &lt;live&gt;`:
/// unescaped, a server shows nothing or markup the tag's author chose. The summary is plain text in the
/// spec and is sent as it is. Both are `PublicText` (NUL removed, length bounded): tags are anyone's.
public struct TrackNotification: Equatable, Sendable {
    public let summary: String
    public let body: String
    /// A `file://` URL of the cover (the cached embedded image or a cover file beside the track).
    public let imageURL: String?

    public init(track: Track, artURL: String?) {
        summary = PublicText.from(track.title)
        let artist = track.tags.artists.isEmpty ? track.tags.albumArtists : track.tags.artists
        let parts = [artist.prefix(PublicText.maximumListCount).joined(separator: ", "), track.tags.album ?? ""]
        body = PublicText.escapingMarkup(PublicText.from(parts.filter { !$0.isEmpty }.joined(separator: " — ")))
        imageURL = artURL.map { PublicText.url($0) }
    }
}
