import DBus
import Library
import PlayerCore
import PlaylistStore

/// Playlists computed when they are played, listed on MPRIS Playlists beside the saved ones: from the listening
/// history (most played, favourites) and from the music library (recently added, never played). Each is offered
/// only when what it needs is there; one that finds no track is refused, and the queue stays as it was.
enum SmartPlaylist: Int, CaseIterable {
    case mostPlayed = 1, favourites, recentlyAdded, neverPlayed

    /// The most tracks one gives.
    static let size = 200

    /// Fixed ids: 31 zeros and a digit, which no saved playlist's random or derived id is.
    var id: String { String(repeating: "0", count: 31) + String(rawValue) }

    var name: String {
        switch self {
        case .mostPlayed: return "Most played"
        case .favourites: return "Favourites"
        case .recentlyAdded: return "Recently added"
        case .neverPlayed: return "Never played"
        }
    }

    var needsLibrary: Bool { self == .recentlyAdded || self == .neverPlayed }

    /// As GetPlaylists lists it: no dates of its own, so it sorts first by creation or modification.
    var listed: SavedPlaylist? {
        (try? PlaylistName(name)).map { SavedPlaylist(id: id, name: $0, entryCount: 0, created: 0, modified: 0) }
    }

    /// Its tracks now, handed to `done` on the loop: most played by play count and favourites (4 or 5 stars) by
    /// rating then last play, from the history at once; recently added by the file's time and never played in album
    /// order, read on the library's thread (never played reads every track's URI), with the index's tags.
    func entries(history: ListeningStatisticsSource?, library: MusicLibrary?,
                 done: @escaping (Result<[QueueEntry], Error>) -> Void) {
        let known = history?.allTracks ?? []
        switch self {
        case .mostPlayed:
            let played = known.filter { $0.statistics.playCount > 0 }
            done(.success(played.sorted { ($0.statistics.playCount, $1.uri) > ($1.statistics.playCount, $0.uri) }
                .prefix(Self.size).map { QueueEntry(uri: $0.uri) }))
        case .favourites:
            let rank = { (track: (uri: String, statistics: ListeningStatistics)) in
                (track.statistics.rating ?? 0, track.statistics.lastPlayed ?? 0)
            }
            done(.success(known.filter { ($0.statistics.rating ?? 0) >= 4 }
                .sorted { rank($0) != rank($1) ? rank($0) > rank($1) : $0.uri < $1.uri }.prefix(Self.size)
                .map { QueueEntry(uri: $0.uri) }))
        case .recentlyAdded:
            guard let library else { return done(.success([])) }
            library.read({ try $0.recentlyChanged(limit: Self.size).map(QueueEntry.init) }, done: done)
        case .neverPlayed:
            guard let library else { return done(.success([])) }
            let played = Set(known.filter { $0.statistics.playCount > 0 }.map(\.uri))
            library.read({ catalog in
                let uris = try catalog.uris(SearchQuery("")).lazy.filter { !played.contains($0) }.prefix(Self.size)
                return try uris.compactMap { try catalog.track(uri: $0).map(QueueEntry.init) }
            }, done: done)
        }
    }
}

extension SavedPlaylists {
    /// Replaces the queue with a smart playlist's tracks now and plays them, then answers; none found is an error.
    func activate(_ smart: SmartPlaylist, _ reply: PendingReply) {
        smart.entries(history: mpris.listeningHistory, library: library) { [weak self] result in
            guard let self else { return reply.fail(.failed("the player is shutting down")) }
            switch result {
            case .failure(let error):
                reply.fail(.failed("\(smart.name) cannot be read from the library (\(error)); the queue is unchanged"))
            case .success(let entries) where entries.isEmpty:
                reply.fail(.failed("\(smart.name) has no tracks yet; the queue is unchanged"))
            case .success(let entries):
                _ = replace(with: PreparedEntries(entries), activating: smart.id)
                mpris.player.play()
                reply.finish([])
            }
        }
    }

    /// The smart playlists whose source is there: the history's when it is kept, the library's when there is one.
    var smartPlaylists: [SmartPlaylist] {
        SmartPlaylist.allCases.filter { $0.needsLibrary ? library != nil : mpris.listeningHistory != nil }
    }
}
