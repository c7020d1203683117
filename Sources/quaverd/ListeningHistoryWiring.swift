// Wiring: the listening history (ListeningHistory) as MPRIS reads it (MPRIS.ListeningStatisticsSource). Neither
// adapter knows the other; this is where their types meet.
import ListeningHistory
import MPRIS

extension HistoryRecorder: @retroactive ListeningStatisticsSource {
    public func statistics(of uri: String) -> ListeningStatistics? {
        tracks[uri].map(Self.statistics)
    }

    public func rate(_ uri: String, stars: Int?) {
        rate(uri, stars)
    }

    public func recentlyPlayed(limit: Int) -> [(uri: String, statistics: ListeningStatistics)] {
        let played = tracks.filter { $0.value.lastPlayed != nil }
            .sorted { ($0.value.lastPlayed ?? 0, $0.key) > ($1.value.lastPlayed ?? 0, $1.key) }
        return played.prefix(limit).map { ($0.key, Self.statistics($0.value)) }
    }

    private static func statistics(_ history: TrackHistory) -> ListeningStatistics {
        ListeningStatistics(playCount: history.playCount, skipCount: history.skipCount, lastPlayed: history.lastPlayed,
                            firstAdded: history.firstAdded, rating: history.rating)
    }
}
