import ControlAPI
import DBus

/// org.quaver.Quaver1 and org.quaver.Quaver1.Library, typed (docs/dbus-api.md). Structured replies are
/// returned as the reply's values, which each program reads into its own rows.
extension QuaverClient {
    /// Adds files or URIs at `position` (`end`, `next`, …); the reply is the interface's.
    public func addTracks(_ uris: [String], at position: String, play: Bool) throws -> [DBusValue] {
        try call(ControlAPI.quaverInterface, "AddTracks", [.stringArray(uris), .string(position), .boolean(play)])
    }

    /// `addTracks` for a folder's files: those quaverd cannot queue are left out and named in the reply.
    public func addFolderTracks(_ uris: [String], at position: String, play: Bool) throws -> [DBusValue] {
        try call(ControlAPI.quaverInterface, "AddFolderTracks", [.stringArray(uris), .string(position), .boolean(play)])
    }

    public func replaceQueue(_ uris: [String], play: Bool) throws {
        try call(ControlAPI.quaverInterface, "ReplaceQueue", [.stringArray(uris), .boolean(play)])
    }

    /// Queues a playlist file's entries; the number of tracks queued.
    public func addPlaylist(_ file: String, at position: String, play: Bool) throws -> Int64 {
        try call(ControlAPI.quaverInterface, "AddPlaylist", [.string(file), .string(position), .boolean(play)]).first?.int64Value ?? 0
    }

    /// The number of tracks queued.
    public func queueLength() throws -> Int64 {
        try get(ControlAPI.quaverInterface, QuaverProperty.queueLength).int64Value ?? 0
    }

    public func clearQueue() throws { try call(ControlAPI.quaverInterface, "Clear") }

    public func removeTracks(_ ids: [ObjectPath]) throws {
        try call(ControlAPI.quaverInterface, "RemoveTracks", [.objectPathArray(ids)])
    }

    /// Moves `track` after `after` (`QuaverClient.noTrack`: to the front).
    public func moveTrack(_ track: ObjectPath, after: ObjectPath) throws {
        try call(ControlAPI.quaverInterface, "MoveTrack", [.objectPath(track), .objectPath(after)])
    }

    /// `a(oa{sv})ou`: a page of the queue (ids and metadata), the current track, the queue's length.
    public func queueRange(from offset: UInt32, count: UInt32) throws -> [DBusValue] {
        try call(ControlAPI.quaverInterface, "GetQueueRange", [.uint32(offset), .uint32(count)])
    }

    public func setOutput(_ name: String) throws { try call(ControlAPI.quaverInterface, "SetOutput", [.string(name)]) }
    public func outputs() throws -> [DBusValue] { try get(ControlAPI.quaverInterface, QuaverProperty.outputs).arrayValue ?? [] }
    public func chosenOutput() throws -> String { try get(ControlAPI.quaverInterface, QuaverProperty.chosenOutput).stringValue ?? "" }

    /// The equaliser's pre-amp then band gains, dB (`EqualizerSetting`); empty when it is off.
    public func equalizer() throws -> [Double] {
        (try get(ControlAPI.quaverInterface, QuaverProperty.equalizer).arrayValue ?? []).compactMap(\.doubleValue)
    }

    /// Eleven values turn the equaliser on with them; none turns it off.
    public func setEqualizer(_ values: [Double]) throws {
        try set(ControlAPI.quaverInterface, QuaverProperty.equalizer, .array(element: "d", values.map(DBusValue.double)))
    }

    /// The preset in use, `off` or `custom`.
    /// Seconds a joint between tracks not of one album overlaps (0: none).
    public func crossfade() throws -> Double {
        try get(ControlAPI.quaverInterface, QuaverProperty.crossfade).doubleValue ?? 0
    }

    public func setCrossfade(_ seconds: Double) throws {
        try set(ControlAPI.quaverInterface, QuaverProperty.crossfade, .double(seconds))
    }

    public func equalizerPreset() throws -> String {
        try get(ControlAPI.quaverInterface, QuaverProperty.equalizerPreset).stringValue ?? ""
    }

    public func setEqualizerPreset(_ name: String) throws {
        try set(ControlAPI.quaverInterface, QuaverProperty.equalizerPreset, .string(name))
    }

    /// The presets' names, shipped and the user's.
    public func equalizerPresets() throws -> [String] {
        (try get(ControlAPI.quaverInterface, QuaverProperty.equalizerPresets).arrayValue ?? []).compactMap(\.stringValue)
    }

    public func setSleepTimer(mode: String, seconds: Int64) throws {
        try call(ControlAPI.quaverInterface, "SetSleepTimer", [.string(mode), .int64(seconds)])
    }

    /// `(sx)`: the timer's mode and seconds.
    public func sleepTimer() throws -> DBusValue { try get(ControlAPI.quaverInterface, QuaverProperty.sleepTimer) }

    /// Stars 0…5, or -1 to clear; `QuaverClient.noTrack` rates the current track.
    public func setRating(track: ObjectPath, stars: Int32) throws {
        try call(ControlAPI.quaverInterface, "SetRating", [.objectPath(track), .int32(stars)])
    }

    /// The current track's delivery figures (keys in `StatisticsKey`, variants unwrapped); empty when no track is loaded.
    public func trackStatistics() throws -> [String: DBusValue] {
        (try call(ControlAPI.quaverInterface, "GetTrackStatistics").first?.dictionaryValue ?? [:]).mapValues(\.unwrapped)
    }

    public func history(limit: UInt32) throws -> [DBusValue] {
        try call(ControlAPI.quaverInterface, "GetHistory", [.uint32(limit)]).first?.arrayValue ?? []
    }

    public func savePlaylist(_ name: String) throws { try call(ControlAPI.quaverInterface, "SavePlaylist", [.string(name)]) }

    /// Loads a saved playlist; the number of tracks queued.
    public func loadPlaylist(_ name: String, play: Bool) throws -> Int64 {
        try call(ControlAPI.quaverInterface, "LoadPlaylist", [.string(name), .boolean(play)]).first?.int64Value ?? 0
    }

    public func savedPlaylists() throws -> [DBusValue] {
        try call(ControlAPI.quaverInterface, "ListPlaylists").first?.arrayValue ?? []
    }

    public func removePlaylist(_ name: String) throws { try call(ControlAPI.quaverInterface, "RemovePlaylist", [.string(name)]) }

    public func renamePlaylist(_ name: String, to newName: String) throws {
        try call(ControlAPI.quaverInterface, "RenamePlaylist", [.string(name), .string(newName)])
    }
}

/// org.quaver.Quaver1.Library.
extension QuaverClient {
    /// A page of the tracks matching `query` (each a Metadata map, keys in `MetadataKey`) and how many match in all.
    public func search(_ query: String, offset: UInt32, limit: UInt32) throws -> (tracks: [[String: DBusValue]], total: Int) {
        let reply = try call(ControlAPI.libraryInterface, "Search", [.string(query), .uint32(offset), .uint32(limit)])
        let tracks = (reply.first?.arrayValue ?? []).compactMap(\.dictionaryValue).map { $0.mapValues(\.unwrapped) }
        return (tracks, Int(reply.dropFirst().first?.int64Value ?? 0))
    }

    public func artists(matching query: String) throws -> [DBusValue] {
        try call(ControlAPI.libraryInterface, "Artists", [.string(query)]).first?.arrayValue ?? []
    }

    public func albums(matching query: String) throws -> [DBusValue] {
        try call(ControlAPI.libraryInterface, "Albums", [.string(query)]).first?.arrayValue ?? []
    }

    /// Queues the tracks matching `query`; the number queued.
    public func addQuery(_ query: String, at position: String, play: Bool) throws -> Int64 {
        try call(ControlAPI.libraryInterface, "AddQuery", [.string(query), .string(position), .boolean(play)]).first?.int64Value ?? 0
    }

    /// Replaces the queue with the tracks matching `query` and plays; the number queued.
    public func playQuery(_ query: String) throws -> Int64 {
        try call(ControlAPI.libraryInterface, "PlayQuery", [.string(query)]).first?.int64Value ?? 0
    }

    /// The tracks in the library's index.
    public func libraryTrackCount() throws -> Int64 {
        try get(ControlAPI.libraryInterface, LibraryProperty.trackCount).int64Value ?? 0
    }

    public func rescan() throws { try call(ControlAPI.libraryInterface, "Rescan") }

    public func libraryStatistics() throws -> [String: DBusValue] {
        try call(ControlAPI.libraryInterface, "Statistics").first?.dictionaryValue ?? [:]
    }
}
