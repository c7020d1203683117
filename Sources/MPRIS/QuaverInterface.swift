import DBus
import EventLoop
import PlayerCore

/// `org.quaver.Quaver1`: what the CLI needs and MPRIS lacks — batch queue edits, the whole queue with
/// metadata in one call, and the player's detailed state. Served beside the MPRIS interfaces on
/// `/org/mpris/MediaPlayer2`; the `1` in the name is its version, so an incompatible change gets a new name.
///
/// Track ids are the MPRIS ones (`TrackPath`), so ids from TrackList and from here can be mixed.
/// Queue edits are all-or-nothing: every argument is checked before the queue is touched.
public final class QuaverInterface: PlayerObserver {
    public static let name = "org.quaver.Quaver1"

    let player: Player
    let connection: Connection
    let path: ObjectPath
    let version: String
    private let metadata = TrackMetadata(artwork: nil)
    /// Property values last announced, so PropertiesChanged carries real changes only (MPRIS.md rule 6).
    private var announced: [String: DBusValue] = [:]
    private var flushScheduled = false

    /// Register it with `player.addObserver` so its properties are announced; `version` is the daemon's.
    public init(player: Player, connection: Connection, path: ObjectPath = "/org/mpris/MediaPlayer2",
                version: String) {
        self.player = player
        self.connection = connection
        self.path = path
        self.version = version
        announced = changingValues
    }

    public var description: InterfaceDescription {
        InterfaceDescription(name: Self.name, methods: methods, properties: properties)
    }

    // MARK: Properties

    private var properties: [InterfaceDescription.Property] {
        typealias Property = InterfaceDescription.Property
        let changing = changingNames.map { name in
            Property(name: name, type: Self.types[name]!) { [unowned self] in changingValues[name]! }
        }
        return changing + [Property(name: "Version", type: "s") { [unowned self] in .string(version) }]
    }

    private static let types: [String: Signature] = ["State": "s", "BufferingPercent": "i", "LastError": "s",
                                                     "QueueLength": "u"]
    private let changingNames = ["State", "BufferingPercent", "LastError", "QueueLength"]

    /// Every property that can change, read from the player.
    private var changingValues: [String: DBusValue] {
        ["State": .string(player.state.rawValue),
         "BufferingPercent": .int32(Int32(clamping: player.bufferingPercent)),
         "LastError": .string(lastErrorText),
         "QueueLength": .uint32(UInt32(clamping: player.tracks.count))]
    }

    /// `title: kind: message` of the latest failure, empty when nothing failed.
    private var lastErrorText: String {
        guard let (id, error) = player.lastError else { return "" }
        return player.track(id).map { "\($0.title): \(error)" } ?? "\(error)"
    }

    /// A command's changes arrive one by one: they are announced together once it has finished.
    public func playerDidChange(_ change: PlayerChange) {
        guard !flushScheduled else { return }
        flushScheduled = true
        EventLoop.main.post { [weak self] in self?.announceChanges() }
    }

    private func announceChanges() {
        flushScheduled = false
        let now = changingValues
        let changed = now.filter { announced[$0.key] != $0.value }
        announced = now
        guard !changed.isEmpty else { return }
        try? connection.emitPropertiesChanged(path: path, interface: Self.name, changed: changed)
    }

    // MARK: Methods

    private var methods: [InterfaceDescription.Method] {
        typealias Method = InterfaceDescription.Method
        typealias Argument = InterfaceDescription.Argument
        return [
            Method(name: "AddTracks", inputs: [Argument("uris", "as"), Argument("position", "s"), Argument("play", "b")],
                   outputs: [Argument("ids", "ao")]) { [unowned self] call in
                let args = call.arguments
                return [try addTracks(args[0].stringArrayValue ?? [], at: try position(args[1].stringValue ?? ""),
                                  play: args[2].boolValue ?? false)]
            },
            Method(name: "ReplaceQueue", inputs: [Argument("uris", "as"), Argument("play", "b")],
                   outputs: [Argument("ids", "ao")]) { [unowned self] call in
                [try replaceQueue(call.arguments[0].stringArrayValue ?? [], play: call.arguments[1].boolValue ?? false)]
            },
            Method(name: "RemoveTracks", inputs: [Argument("ids", "ao")]) { [unowned self] call in
                let ids = try queuedTracks(call.arguments[0].arrayValue ?? [])
                ids.forEach(player.remove)
                return []
            },
            Method(name: "MoveTrack", inputs: [Argument("id", "o"), Argument("after", "o")]) { [unowned self] call in
                let id = try queuedTracks([call.arguments[0]])[0]
                let after = call.arguments[1]
                let target = after.objectPathValue == TrackPath.noTrack
                    ? QueuePosition.start : .after(try queuedTracks([after])[0])
                player.move(id, to: target)
                return []
            },
            Method(name: "Clear") { [unowned self] _ in
                player.clear()
                return []
            },
            Method(name: "GetQueue", outputs: [Argument("tracks", "a(oa{sv})"), Argument("current", "o")]) {
                [unowned self] _ in queue
            },
        ]
    }

    /// `end`, `next` (after the current track; the end when there is none) or `start`.
    private func position(_ text: String) throws -> QueuePosition {
        switch text {
        case "end": return .end
        case "start": return .start
        case "next": return player.currentTrackID.map { .after($0) } ?? .end
        default: throw DBusError.invalidArgs("position must be \"end\", \"next\" or \"start\", not \"\(text)\"")
        }
    }

    private func addTracks(_ uris: [String], at position: QueuePosition, play: Bool) throws -> DBusValue {
        try QueueURI.checkAll(uris)
        let ids = player.add(uris, at: position)
        if play, let first = ids.first {
            player.goTo(first)
            player.play()
        }
        return .objectPathArray(ids.map(TrackPath.path))
    }

    /// `play` false keeps Playing, Paused or Stopped as it was (`Player.replace`).
    private func replaceQueue(_ uris: [String], play: Bool) throws -> DBusValue {
        try QueueURI.checkAll(uris)
        let ids = player.replace(with: uris)
        if play { player.play() }
        return .objectPathArray(ids.map(TrackPath.path))
    }

    /// The tracks named by `paths`, or InvalidArgs naming the first one that is not queued.
    private func queuedTracks(_ paths: [DBusValue]) throws -> [TrackID] {
        try paths.map { value in
            guard let path = value.objectPathValue, let id = TrackPath.trackID(path), player.track(id) != nil else {
                throw DBusError.invalidArgs("\(value.stringValue ?? "?") is not a track in the queue")
            }
            return id
        }
    }

    private var queue: [DBusValue] {
        let entries = player.tracks.map { track in
            DBusValue.structure([.objectPath(TrackPath.path(of: track.id)), .variantDictionary(metadata.values(for: track))])
        }
        let current = player.currentTrackID.map(TrackPath.path) ?? TrackPath.noTrack
        return [.array(element: "(oa{sv})", entries), .objectPath(current)]
    }
}
