import ControlAPI
import DBus
import PlayerCore
import PublicText

/// org.quaver.Quaver1's listening-history methods: ratings and the history itself.
extension MPRISService {
    var historyMethods: [Method] {
        [
            // `track` is a queued track's id, or NoTrack for the current one; `stars` 0…5, or -1 to clear the rating.
            command("SetRating", [Argument("track", "o"), Argument("stars", "i")]) { service, arguments in
                let history = try service.requireHistory()
                let stars = Int(arguments[1].int64Value ?? -2)
                guard (-1...5).contains(stars) else {
                    throw DBusError.invalidArgs("stars must be 0 to 5, or -1 to clear the rating, not \(stars)")
                }
                let uri = try service.ratedURI(arguments[0])
                history.rate(uri, stars: stars < 0 ? nil : stars)
            },
            method("GetHistory", [Argument("limit", "u")], outputs: [Argument("tracks", "a(suuxxi)")]) { service, arguments in
                let history = try service.requireHistory()
                let played = history.allTracks.filter { $0.statistics.lastPlayed != nil }
                    .sorted { ($0.statistics.lastPlayed ?? 0, $0.uri) > ($1.statistics.lastPlayed ?? 0, $1.uri) }
                let rows = played.prefix(Int(arguments[0].int64Value ?? 0)).map { uri, known in
                    DBusValue.structure([.string(PublicText.from(uri, limit: PublicText.maximumURLUTF8Count)),
                                         .uint32(UInt32(clamping: known.playCount)),
                                         .uint32(UInt32(clamping: known.skipCount)), .int64(known.lastPlayed ?? 0),
                                         .int64(known.firstAdded), .int32(Int32(known.rating ?? -1))])
                }
                return [.array(element: "(suuxxi)", rows)]
            },
        ]
    }

    private func requireHistory() throws -> ListeningStatisticsSource {
        guard let listeningHistory else { throw DBusError.failed("the listening history is not kept (see the daemon's log)") }
        return listeningHistory
    }

    /// The URI of the track a client names: NoTrack for the current one.
    private func ratedURI(_ value: DBusValue) throws -> String {
        let id = value.objectPathValue == TrackPath.noTrack ? player.currentTrackID : queuedTrack(value)
        guard let id, let uri = player.uri(of: id) else {
            let named = value.objectPathValue?.rawValue ?? "?"
            throw DBusError.invalidArgs("\(named) is not a track in the queue, and nothing is current")
        }
        return uri
    }
}
