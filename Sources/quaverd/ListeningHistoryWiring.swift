// Wiring: the listening history (ListeningHistory) as MPRIS reads it (MPRIS.ListeningStatisticsSource). Neither
// adapter knows the other; this is where their types meet.
import ListeningHistory
import MPRIS

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
