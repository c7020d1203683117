import ControlAPI
import DBus
import FoundationEssentials
import PlayerCore
import PublicText

/// MPRIS `mpris:trackid` values for queue entries: the control API's track paths (`ControlAPI.TrackPath`)
/// as D-Bus object paths, numbered by the entry's `TrackID`.
enum TrackPath {
    static let noTrack = ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)

    /// The folder the control API's track paths are in (its prefix without the last slash).
    private static let folder = ObjectPath(stringLiteral: String(ControlAPI.TrackPath.prefix.dropLast()))

    /// `ControlAPI.TrackPath.path(of:)` as an object path.
    static func path(of id: TrackID) -> ObjectPath {
        folder.appending(number: id.rawValue)
    }

    /// The id a path names, or nil for anything that is not one of ours (a stale or foreign client value).
    static func id(of path: ObjectPath) -> TrackID? {
        ControlAPI.TrackPath.number(of: path.rawValue).map(TrackID.init)
    }
}

/// The MPRIS Metadata map of a track (docs/mpris.md, "Metadata" gives the types), with the artwork file of
/// an embedded cover written once per track and cover rather than on every `Get`.
///
/// The queue keeps only the playing track's cover bytes, so the file written for a track's cover is
/// remembered here (by track, with the cover's digest, never the bytes) and still named once
/// another track plays, as long as the art cache keeps the file. Tracks without an embedded cover are not remembered: their folder's cover is
/// looked up in the artwork cache's listing of that folder.
final class MetadataMap {
    private let artwork: ArtworkCache
    private var embeddedArtURLs: [TrackID: (digest: UInt64, url: String?)] = [:]
    /// The `a{sv}` last built and the track as it was then. Every GetAll and PropertiesChanged carries the
    /// current track's Metadata; building it anew (title from the file name, artwork lookup, sorting)
    /// was a sixth of a GetAll's instructions. One entry, so a GetQueue of 20 000 tracks does not keep 20 000 maps.
    /// A class, so reading it copies one reference rather than the `Track` and its texts.
    private var lastBuilt: BuiltMap?

    private final class BuiltMap {
        let track: Track
        let value: DBusValue
        /// The same map prepared for writing (`PreparedValue`), once GetAll has asked for it.
        var prepared: PreparedValue?

        init(_ track: Track, _ value: DBusValue) {
            self.track = track
            self.value = value
        }
    }
    /// The listening history's play count, last use and rating, when the daemon keeps one.
    weak var statistics: ListeningStatisticsSource?

    init(artwork: ArtworkCache) {
        self.artwork = artwork
    }

    /// The history of a track changed: the map built last may be out of date.
    func forgetBuilt() {
        lastBuilt = nil
    }

    /// The map built last, if it is `id`'s: no change of that track was heard since (`trackChanged`). Every
    /// change of a queued track's tags, length or cover reaches the service as `PlayerChange.metadata`
    /// (`Player.updateTrack`), so the current track's map is answered without building its `Track` to compare:
    /// that was a third of the getters' instructions in a GetAll(Player).
    func keptValue(of id: TrackID) -> DBusValue? {
        guard let last = lastBuilt, last.track.id == id else { return nil }
        return last.value
    }

    /// The map built last prepared for writing, if it is `id`'s (as `keptValue`); prepared at the first call.
    func keptPrepared(of id: TrackID) -> PreparedValue? {
        guard let last = lastBuilt, last.track.id == id else { return nil }
        if let prepared = last.prepared { return prepared }
        last.prepared = try? PreparedValue(last.value)
        return last.prepared
    }

    /// The track changed: its map is built again when next asked for.
    func trackChanged(_ id: TrackID) {
        if lastBuilt?.track.id == id { lastBuilt = nil }
    }

    /// `metadata(of:)` as the `a{sv}` value sent on the bus.
    func value(of track: Track) -> DBusValue {
        if let last = lastBuilt, last.track == track { return last.value }
        let value = DBusValue.variantDictionary(metadata(of: track))
        lastBuilt = BuiltMap(track, value)
        return value
    }

    func metadata(of track: Track) -> [String: DBusValue] {
        let tags = track.tags
        var entries: [String: DBusValue] = [
            MetadataKey.trackID: .objectPath(TrackPath.path(of: track.id)),
            MetadataKey.title: .string(PublicText.from(track.title)),
            MetadataKey.url: .string(PublicText.url(track.uri)),
        ]
        if let length = track.duration { entries[MetadataKey.length] = .int64(length.microseconds) }
        if let url = artURL(of: track) {
            entries[MetadataKey.artURL] = .string(PublicText.url(url))
        }
        if let album = tags.album { entries[MetadataKey.album] = .string(PublicText.from(album)) }
        if let number = tags.trackNumber { entries[MetadataKey.trackNumber] = .int32(Int32(clamping: number)) }
        if let number = tags.discNumber { entries[MetadataKey.discNumber] = .int32(Int32(clamping: number)) }
        for (key, list) in [(MetadataKey.artist, tags.artists), (MetadataKey.albumArtist, tags.albumArtists),
                            (MetadataKey.genre, tags.genres), (MetadataKey.composer, tags.composers)] where !list.isEmpty {
            entries[key] = .stringArray(PublicText.list(list))
        }
        if let known = statistics?.statistics(of: track.uri) { entries.merge(known.metadataEntries) { $1 } }
        return entries
    }

    /// Drops the map last built unless it is `current`'s: it holds its track, and with it the cover's bytes,
    /// which kept 15 MB resident after Clear.
    func keepBuilt(onlyOf current: TrackID?) {
        if lastBuilt?.track.id != current { lastBuilt = nil }
    }

    /// Forgets a track that left the queue.
    func forget(_ id: TrackID) {
        embeddedArtURLs[id] = nil
        if lastBuilt?.track.id == id { lastBuilt = nil }
    }

    private func artURL(of track: Track) -> String? {
        let known = embeddedArtURLs[track.id]
        guard let cover = track.tags.coverImage else {
            if let url = known?.url, artwork.isPresent(url) { return url }
            return artwork.artURL(trackURI: track.uri, embedded: nil)
        }
        if let known, known.digest == cover.digest, known.url.map(artwork.isPresent) ?? true { return known.url }
        let url = artwork.artURL(trackURI: track.uri, embedded: cover)
        embeddedArtURLs[track.id] = (cover.digest, url)
        return url
    }
}

extension Duration {
    /// Signed 64-bit microseconds, as every MPRIS time is (rule 3); saturates instead of trapping.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000_000).overflow
            ? .max : whole + attoseconds / 1_000_000_000_000
    }
}
