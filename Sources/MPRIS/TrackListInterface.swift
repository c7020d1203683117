import ControlAPI
import DBus
import PlayerCore

/// `org.mpris.MediaPlayer2.TrackList`: the queue. `Tracks` is signalled by invalidation only (docs/mpris.md, "PropertiesChanged");
/// the four signals say what changed. A move has no signal of its own in MPRIS: it is a TrackListReplaced.
extension MPRISService {
    func makeTrackListInterface() -> InterfaceDescription {
        InterfaceDescription(name: Self.trackListInterface, methods: [
            method("GetTracksMetadata", [Argument("TrackIds", "ao")], outputs: [Argument("Metadata", "aa{sv}")]) {
                service, arguments in
                // Ids no longer queued are left out rather than failing the whole call. More ids than the
                // queue can hold name some twice, and each would be answered with its metadata again.
                let named = arguments[0].arrayValue ?? []
                guard named.count <= InputLimits.maximumQueueLength else {
                    throw DBusError.limitsExceeded("\(named.count) ids in one call: the queue holds at most \(InputLimits.maximumQueueLength)")
                }
                let ids = named.compactMap(service.queuedTrack)
                return [.array(element: "a{sv}", ids.map(service.metadata(of:)))]
            },
            command("AddTrack", [Argument("Uri", "s"), Argument("AfterTrack", "o"), Argument("SetAsCurrent", "b")]) {
                service, arguments in
                try service.addTrack(arguments[0].stringValue ?? "", after: arguments[1],
                                     setAsCurrent: arguments[2].boolValue ?? false)
            },
            command("RemoveTrack", [Argument("TrackId", "o")]) { service, arguments in
                if let id = service.queuedTrack(arguments[0]) { service.player.remove(id) }
            },
            command("GoTo", [Argument("TrackId", "o")]) { service, arguments in
                if let id = service.queuedTrack(arguments[0]) { service.player.goTo(id) }
            },
        ], properties: [
            property("Tracks", "ao") { .objectPathArray($0.player.trackIDs.map(TrackPath.path(of:))) },
            property("CanEditTracks", "b") { _ in .boolean(true) },
        ], signals: [
            SignalDescription(name: "TrackListReplaced", arguments: [Argument("Tracks", "ao"), Argument("CurrentTrack", "o")]),
            SignalDescription(name: "TrackAdded", arguments: [Argument("Metadata", "a{sv}"), Argument("AfterTrack", "o")]),
            SignalDescription(name: "TrackRemoved", arguments: [Argument("TrackId", "o")]),
            SignalDescription(name: "TrackMetadataChanged", arguments: [Argument("TrackId", "o"), Argument("Metadata", "a{sv}")]),
        ])
    }

    /// AddTrack: after `after` (NoTrack: at the start); an unknown track or a refused URI changes nothing.
    private func addTrack(_ text: String, after: DBusValue, setAsCurrent: Bool) throws {
        let uri = try OpenableURI.check(text, recognisesMedia: configuration.recognisesMedia)
        let position: QueuePosition
        if after.objectPathValue == TrackPath.noTrack {
            position = .start
        } else if let id = queuedTrack(after) {
            position = .after(id)
        } else {
            throw DBusError.invalidArgs("AfterTrack \(after.stringValue ?? "") is not in the track list")
        }
        try checkRoom(for: 1)
        guard let id = player.add([uri], at: position).first else { return }
        if setAsCurrent { player.goTo(id) }
    }

    /// One TrackAdded per track, each carrying full metadata, up to this many; a larger batch (a folder of
    /// 20 000 files) is announced as one TrackListReplaced, so the loop is not busy for seconds marshalling
    /// signals nobody reads track by track.
    static let largestAnnouncedBatch = 64

    func announceAdded(_ ids: [TrackID], after: TrackID?) {
        announceRemoved()
        guard ids.count <= Self.largestAnnouncedBatch else { return announceReplaced() }
        var previous = after.map(TrackPath.path(of:)) ?? TrackPath.noTrack
        for id in ids {
            emit(Self.trackListInterface, "TrackAdded", [metadata(of: id), .objectPath(previous)])
            previous = TrackPath.path(of: id)
        }
    }

    /// Removes queued tracks. More than `largestAnnouncedBatch` count as an edit in slices: their
    /// TrackListReplaced carries a track list built over several turns (100 000 paths held the loop 20 ms).
    func removeTracks(_ ids: [TrackID]) {
        guard Set(ids).count > Self.largestAnnouncedBatch else { return player.remove(ids) }
        beginEditInSlices()
        player.remove(ids)
        endEditInSlices {}
    }

    /// The TrackRemoved signals of this loop turn, sent before any other track-list signal and at the
    /// flush: one per track, or one TrackListReplaced for more than `largestAnnouncedBatch` (RemoveTracks
    /// of 50 000 would otherwise be 50 000 signals).
    func announceRemoved() {
        let ids = tracksRemoved
        guard !ids.isEmpty else { return }
        tracksRemoved = []
        guard ids.count <= Self.largestAnnouncedBatch else { return announceReplaced() }
        for id in ids { emit(Self.trackListInterface, "TrackRemoved", [.objectPath(TrackPath.path(of: id))]) }
    }

    /// - Parameter paths: the queue's track paths (`ao`) if the caller has them already.
    func announceReplaced(paths: DBusValue? = nil) {
        tracksRemoved = []
        let current = player.currentTrackID.map(TrackPath.path(of:)) ?? TrackPath.noTrack
        emit(Self.trackListInterface, "TrackListReplaced",
             [paths ?? .objectPathArray(player.trackIDs.map(TrackPath.path(of:))), .objectPath(current)])
    }

    /// One TrackMetadataChanged per track whose metadata changed during the loop turn.
    func emitTrackMetadataChanges() {
        let ids = tracksWithNewMetadata
        tracksWithNewMetadata = []
        for id in ids where player.track(id) != nil {
            emit(Self.trackListInterface, "TrackMetadataChanged", [.objectPath(TrackPath.path(of: id)), metadata(of: id)])
        }
    }
}
