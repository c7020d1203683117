import ControlAPI
import DBus

/// The MPRIS root and Player interfaces, typed (the MPRIS 2.2 spec; docs/mpris.md for quaverd's reading of it).
/// Times are microseconds, as on the bus.
extension QuaverClient {
    public var identity: String {
        get throws { try get(ControlAPI.rootInterface, "Identity").stringValue ?? "" }
    }

    public func quit() throws { try call(ControlAPI.rootInterface, "Quit") }

    public func play() throws { try playerCall("Play") }
    public func pause() throws { try playerCall("Pause") }
    public func playPause() throws { try playerCall("PlayPause") }
    public func stop() throws { try playerCall("Stop") }
    public func next() throws { try playerCall("Next") }
    public func previous() throws { try playerCall("Previous") }

    /// Relative: a negative offset clamps at the start, past the end acts as Next.
    public func seek(by microseconds: Int64) throws { try playerCall("Seek", [.int64(microseconds)]) }

    /// Absolute; does nothing unless `track` is the current track's `mpris:trackid`.
    public func setPosition(track: ObjectPath, to microseconds: Int64) throws {
        try playerCall("SetPosition", [.objectPath(track), .int64(microseconds)])
    }

    public func openURI(_ uri: String) throws { try playerCall("OpenUri", [.string(uri)]) }

    /// Every Player property at once (Position current as of the reply).
    public func playerProperties() throws -> [String: DBusValue] { try getAll(ControlAPI.playerInterface) }

    public var playbackStatus: String {
        get throws { try get(ControlAPI.playerInterface, PlayerProperty.playbackStatus).stringValue ?? "Stopped" }
    }

    /// The current track's Metadata map (keys in `MetadataKey`); empty with no current track.
    public var metadata: [String: DBusValue] {
        get throws { try get(ControlAPI.playerInterface, PlayerProperty.metadata).dictionaryValue ?? [:] }
    }

    public var position: Int64 {
        get throws { try get(ControlAPI.playerInterface, PlayerProperty.position).int64Value ?? 0 }
    }

    public func volume() throws -> Double { try get(ControlAPI.playerInterface, PlayerProperty.volume).doubleValue ?? 0 }
    public func setVolume(_ volume: Double) throws { try set(ControlAPI.playerInterface, PlayerProperty.volume, .double(volume)) }

    public func rate() throws -> Double { try get(ControlAPI.playerInterface, PlayerProperty.rate).doubleValue ?? 1 }
    public func setRate(_ rate: Double) throws { try set(ControlAPI.playerInterface, PlayerProperty.rate, .double(rate)) }

    /// `None`, `Track` or `Playlist`.
    public func loopStatus() throws -> String { try get(ControlAPI.playerInterface, PlayerProperty.loopStatus).stringValue ?? "" }
    public func setLoopStatus(_ status: ControlAPI.LoopStatus) throws {
        try set(ControlAPI.playerInterface, PlayerProperty.loopStatus, .string(status.rawValue))
    }

    public func shuffle() throws -> Bool { try get(ControlAPI.playerInterface, PlayerProperty.shuffle).boolValue == true }
    public func setShuffle(_ on: Bool) throws { try set(ControlAPI.playerInterface, PlayerProperty.shuffle, .boolean(on)) }

    private func playerCall(_ method: String, _ arguments: [DBusValue] = []) throws {
        try call(ControlAPI.playerInterface, method, arguments)
    }
}

/// The MPRIS TrackList and Playlists interfaces.
extension QuaverClient {
    public func goTo(track: ObjectPath) throws { try call(ControlAPI.trackListInterface, "GoTo", [.objectPath(track)]) }

    /// The queue's track ids, in order.
    public func trackIDs() throws -> [ObjectPath] {
        (try get(ControlAPI.trackListInterface, "Tracks").arrayValue ?? []).compactMap(\.objectPathValue)
    }

    /// Each track's Metadata map, in the order of `ids` (unknown ids are left out).
    public func tracksMetadata(_ ids: [ObjectPath]) throws -> [[String: DBusValue]] {
        let reply = try call(ControlAPI.trackListInterface, "GetTracksMetadata", [.objectPathArray(ids)])
        return (reply.first?.arrayValue ?? []).map { $0.dictionaryValue ?? [:] }
    }

    /// A page of the playlists (`Alphabetical`, `CreationDate`, `ModifiedDate`, `LastPlayDate`), as (id, name).
    public func playlists(from index: UInt32, count: UInt32, ordering: String = "Alphabetical",
                          reversed: Bool = false) throws -> [(id: ObjectPath, name: String)] {
        let reply = try call(ControlAPI.playlistsInterface, "GetPlaylists",
                             [.uint32(index), .uint32(count), .string(ordering), .boolean(reversed)])
        return (reply.first?.arrayValue ?? []).compactMap { entry in
            guard let fields = entry.arrayValue, fields.count == 3, let id = fields[0].objectPathValue,
                  let name = fields[1].stringValue else { return nil }
            return (id, name)
        }
    }

    public func activatePlaylist(_ playlist: ObjectPath) throws {
        try call(ControlAPI.playlistsInterface, "ActivatePlaylist", [.objectPath(playlist)])
    }
}
