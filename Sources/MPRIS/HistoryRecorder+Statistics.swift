// The listening history (ListeningHistory) as MPRIS reads it (ListeningStatisticsSource): MPRIS publishes the
// history as it publishes the library and the saved playlists, and the history knows nothing of MPRIS.
import ListeningHistory

extension HistoryRecorder: ListeningStatisticsSource {
    public func statistics(of uri: String) -> ListeningStatistics? {
        tracks[uri].map(Self.statistics)
    }

    public func rate(_ uri: String, stars: Int?) {
        rate(uri, stars)
    }

    public var allTracks: [(uri: String, statistics: ListeningStatistics)] {
        tracks.map { ($0.key, Self.statistics($0.value)) }
    }

    private static func statistics(_ history: TrackHistory) -> ListeningStatistics {
        ListeningStatistics(playCount: history.playCount, skipCount: history.skipCount, lastPlayed: history.lastPlayed,
                            firstAdded: history.firstAdded, rating: history.rating)
    }
}

extension MPRISService {
    /// Publishes `history` in each track's Metadata and through org.quaver.Quaver1's history methods; a track's
    /// new counts or rating reach its Metadata.
    public func publish(_ history: HistoryRecorder) {
        history.onTrackChanged = { [weak self] uri in self?.listeningStatisticsChanged(uri: uri) }
        listeningHistory = history
    }
}
