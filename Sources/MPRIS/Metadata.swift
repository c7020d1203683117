import DBus
import PlayerCore

/// Object paths of queue entries (`mpris:trackid`, TrackList ids, org.quaver.Quaver1 ids).
///
/// MPRIS.md rule 5: a path per queue entry, outside the reserved `/org/mpris/` prefix; the element is
/// the `TrackID` raw value, which is never reused, so a stale id never names another entry.
public enum TrackPath {
    static let prefix = "/org/quaver/Track/"

    /// MPRIS's "no track": TrackList.AddTrack's AfterTrack meaning "at the start", GetQueue with no current track.
    public static let noTrack: ObjectPath = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    public static func path(of id: TrackID) -> ObjectPath {
        // Digits only after a valid prefix: always a valid object path.
        try! ObjectPath(prefix + String(id.rawValue))
    }

    /// The track a path names, or nil for any other path (NoTrack included).
    public static func trackID(_ path: ObjectPath) -> TrackID? {
        let text = path.rawValue
        guard text.hasPrefix(prefix), let raw = UInt64(text.dropFirst(prefix.count)) else { return nil }
        return TrackID(raw)
    }
}

/// MPRIS `Metadata` of a queue entry, in one place for Player.Metadata, TrackList.GetTracksMetadata and
/// org.quaver.Quaver1.GetQueue. Types follow MPRIS.md rule 11; unknown fields are left out, not sent empty,
/// except `xesam:title`, which GNOME Shell needs (the file name stands in).
public struct TrackMetadata {
    /// Where embedded covers are written for `mpris:artUrl`; nil leaves art out (a whole-queue listing
    /// would otherwise look for folder covers beside every file).
    public let artwork: ArtworkCache?

    public init(artwork: ArtworkCache?) {
        self.artwork = artwork
    }

    public func values(for track: Track) -> [String: DBusValue] {
        let tags = track.tags
        var values: [String: DBusValue] = [
            "mpris:trackid": .objectPath(TrackPath.path(of: track.id)),
            "xesam:title": .string(track.title),
            "xesam:url": .string(track.uri),
        ]
        if let duration = track.duration { values["mpris:length"] = .int64(Self.microseconds(duration)) }
        if !tags.artists.isEmpty { values["xesam:artist"] = .stringArray(tags.artists) }
        if !tags.albumArtists.isEmpty { values["xesam:albumArtist"] = .stringArray(tags.albumArtists) }
        if !tags.genres.isEmpty { values["xesam:genre"] = .stringArray(tags.genres) }
        if !tags.composers.isEmpty { values["xesam:composer"] = .stringArray(tags.composers) }
        if let album = tags.album { values["xesam:album"] = .string(album) }
        if let number = tags.trackNumber { values["xesam:trackNumber"] = .int32(Int32(clamping: number)) }
        if let number = tags.discNumber { values["xesam:discNumber"] = .int32(Int32(clamping: number)) }
        if let art = artwork?.artURL(trackURI: track.uri, embedded: tags.coverImage) {
            values["mpris:artUrl"] = .string(art)
        }
        return values
    }

    /// MPRIS times are signed 64-bit microseconds (MPRIS.md rule 3).
    public static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
