import PlayerCore
import PublicText

/// What a track-change notification shows: the title as summary, "artist — album" as body, and the cover.
///
/// The Desktop Notifications spec lets the body carry a small subset of HTML (`<b>`, `<i>`, `<a href>`,
/// `<img>`) when the server has the `body-markup` capability, so a tag such as `Tom & Jerry <live>` must reach
/// such a server as `Tom &amp; Jerry &lt;live&gt;` (unescaped, it shows nothing or markup the tag's author
/// chose), and any other server as it is (it shows text as given: escaped, `&amp;` would show).
/// The summary is plain text in the spec, and servers escape it themselves: GNOME Shell 43 passes the title
/// through `GLib.markup_escape_text` (`_fixMarkup(text, false)` in ui/messageList.js), dunst since 1.4.0, so
/// an escaped summary would show `&lt;live&gt;`; it is sent as it is. Both are `PublicText` (NUL removed,
/// length bounded): tags are anyone's.
public struct TrackNotification: Equatable, Sendable {
    public let summary: String
    /// The body as plain text.
    public let body: String
    /// A `file://` URL of the cover (the cached embedded image or a cover file beside the track).
    public let imageURL: String?

    public init(track: Track, artURL: String?) {
        summary = PublicText.from(track.title)
        let artist = track.tags.artists.isEmpty ? track.tags.albumArtists : track.tags.artists
        let parts = [artist.prefix(PublicText.maximumListCount).joined(separator: ", "), track.tags.album ?? ""]
        body = PublicText.from(parts.filter { !$0.isEmpty }.joined(separator: " — "))
        imageURL = artURL.map { PublicText.url($0) }
    }

    /// The body for a server that takes markup in it (`body-markup`) or not.
    public func body(takingMarkup: Bool) -> String {
        takingMarkup ? PublicText.escapingMarkup(body) : body
    }
}
