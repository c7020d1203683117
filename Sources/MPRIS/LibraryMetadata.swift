import ControlAPI
import DBus
import Library
import PlayerCore

/// How library tracks and figures look on the bus: a track as a metadata map with MPRIS's keys and types
/// (docs/mpris.md, "Metadata types"; `xesam:url` is the URI to queue), our own keys prefixed `quaver:`.
enum LibraryMetadata {
    static func value(_ track: LibraryTrack) -> DBusValue {
        var entries: [String: DBusValue] = [
            MetadataKey.url: .string(track.uri),
            MetadataKey.title: .string(track.displayTitle),
            MetadataKey.artist: .stringArray(track.artists),
            MetadataKey.album: .string(track.album),
            MetadataKey.length: .int64(Int64(track.lengthMilliseconds) * 1000),
        ]
        if !track.albumArtist.isEmpty { entries[MetadataKey.albumArtist] = .stringArray([track.albumArtist]) }
        if !track.composer.isEmpty { entries[MetadataKey.composer] = .stringArray([track.composer]) }
        if !track.genre.isEmpty { entries[MetadataKey.genre] = .stringArray([track.genre]) }
        if track.trackNumber > 0 { entries[MetadataKey.trackNumber] = .int32(Int32(clamping: track.trackNumber)) }
        if track.discNumber > 0 { entries[MetadataKey.discNumber] = .int32(Int32(clamping: track.discNumber)) }
        if track.year > 0 { entries[MetadataKey.year] = .int32(Int32(clamping: track.year)) }
        if !track.musicBrainz.recording.isEmpty { entries[MetadataKey.musicBrainzRecording] = .string(track.musicBrainz.recording) }
        return .variantDictionary(entries)
    }

    static func statistics(_ figures: LibraryStatistics, folders: [String]) -> DBusValue {
        .variantDictionary([
            "Tracks": .uint32(UInt32(clamping: figures.tracks)),
            "Albums": .uint32(UInt32(clamping: figures.albums)),
            "Artists": .uint32(UInt32(clamping: figures.artists)),
            "Missing": .uint32(UInt32(clamping: figures.missing)),
            "Bytes": .uint64(UInt64(clamping: figures.bytes)),
            "Seconds": .uint64(UInt64(clamping: figures.milliseconds / 1000)),
            "LastScan": .int64(figures.lastScanEnd),
            "Folders": .stringArray(folders),
        ])
    }
}

extension QueueEntry {
    /// A library track as the queue takes it: with the index's tags and length, so clients see them as soon as it
    /// is queued, and the background tag reader leaves it alone (it reads only tracks with neither).
    init(_ track: LibraryTrack) {
        var tags = TrackTags()
        tags.title = track.title.isEmpty ? nil : track.title
        tags.artists = track.artists
        tags.album = track.album.isEmpty ? nil : track.album
        tags.albumArtists = track.albumArtist.isEmpty ? [] : [track.albumArtist]
        tags.genres = track.genre.isEmpty ? [] : [track.genre]
        tags.composers = track.composer.isEmpty ? [] : [track.composer]
        tags.trackNumber = track.trackNumber > 0 ? track.trackNumber : nil
        tags.discNumber = track.discNumber > 0 ? track.discNumber : nil
        self.init(uri: track.uri, tags: tags,
                  duration: track.lengthMilliseconds > 0 ? .milliseconds(track.lengthMilliseconds) : nil)
    }
}

extension MusicLibrary {
    /// What `Player.readTagsAtOnce` reads of a track becoming current, so the card shows it complete: for a file the
    /// library indexed, its tags and length from the index and only its embedded cover from the file (TagLib reads
    /// the picture, nothing is decoded; no read at all without one), where `otherwise` (the engine's prompt reader)
    /// prerolls the file in a pipeline for all of it. Files the library does not know are read by `otherwise`.
    public func tagsAtOnce(otherwise read: ((EngineItem) -> (tags: TrackTags, duration: Duration?)?)?)
        -> (EngineItem) -> (tags: TrackTags, duration: Duration?)? {
        { [weak self] item in
            guard let self, let track = try? catalog().track(uri: item.uri) else { return read?(item) }
            let entry = QueueEntry(track)
            var tags = entry.tags
            if track.hasCover, let picture = Self.embeddedCover(of: item.uri, maximumByteCount: CoverImage.maximumByteCount) {
                tags.coverImage = CoverImage(data: picture.data, mimeType: picture.mimeType)
            }
            return (tags, entry.duration)
        }
    }
}
