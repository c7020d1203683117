// Whether a track plays within a run of its album: what ReplayGain's "auto" mode needs to choose between
// the album's gain (the album sounds as mastered) and the track's own (a mix of albums sounds even), as
// foobar2000 and MPD do. The neighbours are those in play order (shuffle included), so a shuffled album
// is levelled track by track. The same rule says whether the joint into a track is within its album, which a
// crossfade keeps gapless (docs/ARCHITECTURE.md, "Crossfade").
extension Player {
    /// `track` as the engine gets it.
    func engineItem(for track: Track) -> EngineItem {
        EngineItem(id: track.id, uri: track.uri,
                   sharesAlbumWithNeighbour: marksAlbumNeighbours && sharesAlbumWithNeighbour(track),
                   continuesAlbum: marksAlbumJoints && continuesAlbum(track))
    }

    /// Tells the engine when the loaded item's neighbours changed album (their tags arrived, or the
    /// queue or its order changed); run once at the end of each command or event.
    func syncLoadedItem() {
        guard marksAlbumNeighbours, let loaded, let track = queue.track(loaded) else { return }
        let item = engineItem(for: track)
        guard item.sharesAlbumWithNeighbour != loadedSharesAlbum else { return }
        loadedSharesAlbum = item.sharesAlbumWithNeighbour
        engine.update(item)
    }

    /// The joint into `track` is within one album: the track before it in play order is from the same album.
    private func continuesAlbum(_ track: Track) -> Bool {
        guard let id = order.previous(before: track.id, wrap: wrapsQueue, in: queue), id != track.id,
              let previous = queue.track(id) else { return false }
        return track.tags.isSameAlbum(as: previous.tags)
    }

    private func sharesAlbumWithNeighbour(_ track: Track) -> Bool {
        let neighbours = [order.previous(before: track.id, wrap: wrapsQueue, in: queue),
                          order.upcoming(after: track.id, wrap: wrapsQueue, in: queue)]
        return neighbours.contains { id in
            guard let id, id != track.id, let neighbour = queue.track(id) else { return false }
            return track.tags.isSameAlbum(as: neighbour.tags)
        }
    }
}

extension TrackTags {
    /// The same album tag, and the same album artists (or, when either lacks them, the same artists)
    /// where both name any: two "Greatest Hits" by different bands are two albums, while a compilation's
    /// tracks share their album artist and differ in artist.
    func isSameAlbum(as other: TrackTags) -> Bool {
        guard let album, !album.isEmpty, album == other.album else { return false }
        if !albumArtists.isEmpty, !other.albumArtists.isEmpty { return albumArtists == other.albumArtists }
        if !artists.isEmpty, !other.artists.isEmpty { return artists == other.artists }
        return true
    }
}
