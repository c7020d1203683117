import ControlAPI
import DBus
import EventLoop
import PlayerCore
import PublicText

/// `org.quaver.Quaver1`: what the CLI needs and MPRIS lacks — batch queue edits, the whole queue with
/// metadata in one call, and the player's detailed state. Served beside the MPRIS interfaces on
/// `/org/mpris/MediaPlayer2`; the `1` in the name is its version, so an incompatible change gets a new name.
///
/// It shares the MPRIS adapter's track ids (`TrackPath`), metadata map, URI checks and PropertiesChanged
/// batching, so ids from TrackList and from here mix, and a command's changes reach clients in one signal
/// per interface. Queue edits are all-or-nothing (every argument is checked before the queue is touched), except
/// AddFolderTracks, which leaves out what it cannot queue and says so.
public final class QuaverInterface: PlayerObserver {
    public static let name = ControlAPI.quaverInterface

    private let mpris: MPRISService
    private let version: String
    private let playlists: SavedPlaylists?
    /// Members other adapters add (the sleep timer, the outputs), signalled with ours.
    private let parts: [InterfacePart]
    private var player: Player { mpris.player }
    /// AddTracks and ReplaceQueue calls not answered yet, in the order they came; the first is under way.
    private var editsInOrder: [() -> Void] = []

    /// Observes the player (held weakly by it: keep this object alive as long as the service). With `playlists`,
    /// its methods (SavePlaylist, LoadPlaylist…) are part of this interface; `parts` are members other adapters
    /// add (the sleep timer, the outputs), signalled with ours.
    public init(mpris: MPRISService, version: String, playlists: SavedPlaylists? = nil, parts: [InterfacePart] = []) {
        self.mpris = mpris
        self.version = version
        self.playlists = playlists
        self.parts = parts
        for part in parts { part.valuesChanged = { [weak mpris] in mpris?.batcher.markChanged(Self.name) } }
        mpris.batcher.watch(Self.name) { [weak self] in self?.signalledValues ?? [:] }
        mpris.player.addObserver(self)
    }

    /// Export it with the MPRIS ones: `mpris.exportedObject(adding: [quaver.description])`.
    public var description: InterfaceDescription {
        let playlistMethods = playlists?.quaverMethods { [weak self] place in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return try self.position(place)
        }
        return InterfaceDescription(name: Self.name,
                                    methods: methods + mpris.historyMethods + (playlistMethods ?? []) + parts.flatMap(\.methods),
                                    properties: properties + parts.flatMap(\.properties))
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .state, .buffering, .trackFailed, .tracksAdded, .trackRemoved, .queueReplaced:
            mpris.batcher.markChanged(Self.name)
        default:
            break
        }
    }

    // MARK: Properties

    private var properties: [InterfaceDescription.Property] {
        let signalled = Self.signalledTypes.map { name, type in
            InterfaceDescription.Property(name: name, type: type) { [weak self] in
                guard let value = self?.signalledValues[name] else { throw DBusError.failed("the player is shutting down") }
                return value
            }
        }
        return signalled + [InterfaceDescription.Property(name: "Version", type: "s") { [version] in .string(version) }]
    }

    private static let signalledTypes: [(String, Signature)] = [
        (QuaverProperty.state, "s"), (QuaverProperty.bufferingPercent, "i"),
        (QuaverProperty.lastError, "s"), (QuaverProperty.queueLength, "u"),
    ]

    /// Every property that can change, read from the player; Version never changes.
    private var signalledValues: [String: DBusValue] {
        parts.reduce(ownSignalledValues) { values, part in values.merging(part.signalledValues) { $1 } }
    }

    private var ownSignalledValues: [String: DBusValue] {
        [QuaverProperty.state: .string(player.state.rawValue),
         QuaverProperty.bufferingPercent: .int32(Int32(clamping: player.bufferingPercent)),
         QuaverProperty.lastError: .string(lastErrorText),
         QuaverProperty.queueLength: .uint32(UInt32(clamping: player.queueLength))]
    }

    /// `title: kind: message` of the latest failure, empty when nothing failed. Every listener on the bus
    /// gets it, and the engine's message quotes the URI: credentials are masked.
    private var lastErrorText: String {
        guard let failure = player.lastError else { return "" }
        return PublicText.from("\(failure.title): \(failure.error)", quoting: [failure.uri])
    }

    // MARK: Methods

    private var methods: [InterfaceDescription.Method] {
        typealias Argument = InterfaceDescription.Argument
        return [
            methodAnsweringLater("AddTracks", [Argument("uris", "as"), Argument("position", "s"), Argument("play", "b")],
                                 outputs: [Argument("ids", "ao")]) { this, args, reply in
                let place = args[1].stringValue ?? "", play = args[2].boolValue ?? false
                _ = try this.position(place)  // a bad position is refused before any file is looked at
                this.inOrder(reply) {
                    let items = args[0].arrayValue ?? []
                    // All or nothing: a queue without room for all of them refuses before any is checked.
                    do { try this.mpris.checkRoom(for: items.count) } catch { return reply.fail(error as? DBusError ?? .failed("\(error)")) }
                    this.checkInSlices(items, .allOrNothing, reply) { uris, _ in
                        try this.addTracks(uris, at: try this.position(place), play: play, reply)
                    }
                }
            },
            // A folder's contents (`quaver add ~/Music`): what cannot be queued is left out and listed with
            // its reason, instead of refusing the whole folder for one odd file.
            methodAnsweringLater("AddFolderTracks", [Argument("uris", "as"), Argument("position", "s"), Argument("play", "b")],
                                 outputs: [Argument("ids", "ao"), Argument("refused", "a(ss)")]) { this, args, reply in
                let place = args[1].stringValue ?? "", play = args[2].boolValue ?? false
                _ = try this.position(place)
                this.inOrder(reply) {
                    this.checkInSlices(args[0].arrayValue ?? [], .skippingRefused, reply) { uris, refused in
                        let list = DBusValue.array(element: "(ss)", refused.map { .structure([.string($0.uri), .string($0.reason)]) })
                        try this.addTracks(uris, at: try this.position(place), play: play, reply, alsoAnswering: [list])
                    }
                }
            },
            methodAnsweringLater("ReplaceQueue", [Argument("uris", "as"), Argument("play", "b")],
                                 outputs: [Argument("ids", "ao")]) { this, args, reply in
                let play = args[1].boolValue ?? false
                this.inOrder(reply) {
                    this.checkInSlices(args[0].arrayValue ?? [], .allOrNothing, reply) { uris, _ in this.replaceQueue(uris, play: play, reply) }
                }
            },
            method("RemoveTracks", [Argument("ids", "ao")]) { this, args in
                let ids = args[0].arrayValue ?? []
                // More ids than the queue can hold name some twice: 1 500 000 of them held the loop 4.6 s.
                guard ids.count <= InputLimits.maximumQueueLength else {
                    throw DBusError.limitsExceeded("\(ids.count) ids in one call: the queue holds at most \(InputLimits.maximumQueueLength)")
                }
                this.mpris.removeTracks(try this.queuedTracks(ids))
                return []
            },
            method("MoveTrack", [Argument("id", "o"), Argument("after", "o")]) { this, args in
                let id = try this.queuedTracks([args[0]])[0]
                let target = args[1].objectPathValue == TrackPath.noTrack
                    ? QueuePosition.start : .after(try this.queuedTracks([args[1]])[0])
                this.player.move(id, to: target)
                return []
            },
            method("Clear") { this, _ in
                this.player.clear()
                return []
            },
            method("GetQueue", outputs: [Argument("tracks", "a(oa{sv})"), Argument("current", "o")]) { this, _ in
                Array(this.queue(from: 0, count: .max).prefix(2))
            },
            // A page of a long queue: one answer for 20 000 tracks holds the loop (and every other
            // client) for as long as it takes to build, and is several megabytes.
            method("GetQueueRange", [Argument("start", "u"), Argument("count", "u")],
                   outputs: [Argument("tracks", "a(oa{sv})"), Argument("current", "o"), Argument("total", "u")]) { this, args in
                this.queue(from: Int(args[0].int64Value ?? 0), count: Int(args[1].int64Value ?? 0))
            },
        ]
    }

    /// A method whose handler holds this object weakly (the connection keeps the exported object alive).
    private func method(_ name: String, _ inputs: [InterfaceDescription.Argument] = [],
                        outputs: [InterfaceDescription.Argument] = [],
                        _ body: @escaping (QuaverInterface, [DBusValue]) throws -> [DBusValue]) -> InterfaceDescription.Method {
        InterfaceDescription.Method(name: name, inputs: inputs, outputs: outputs) { [weak self] call in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return try body(self, call.arguments)
        }
    }

    /// A method answered through a `PendingReply`, holding this object weakly.
    private func methodAnsweringLater(_ name: String, _ inputs: [InterfaceDescription.Argument],
                                      outputs: [InterfaceDescription.Argument],
                                      _ body: @escaping (QuaverInterface, [DBusValue], PendingReply) throws -> Void)
        -> InterfaceDescription.Method {
        InterfaceDescription.Method(name: name, inputs: inputs, outputs: outputs) { [weak self] call, reply in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            try body(self, call.arguments, reply)
        }
    }

    private func position(_ text: String) throws -> QueuePosition { try player.queuePosition(named: text) }

    /// Throws LimitsExceeded (and adds nothing) when the queue would grow past its limit.
    private func addTracks(_ uris: [String], at position: QueuePosition, play: Bool, _ reply: PendingReply,
                           alsoAnswering more: [DBusValue] = []) throws {
        try mpris.checkRoom(for: uris.count)
        QueueEditInSlices(mpris, uris, at: position, replacing: false) { [weak self] ids, paths in
            if play, let first = ids.first, let player = self?.player, player.index(of: first) != nil {
                player.goTo(first)
                player.play()
            }
            reply.finish([paths] + more)
        }.start()
    }

    /// `play` false keeps Playing, Paused or Stopped as it was (`Player.replace`).
    private func replaceQueue(_ uris: [String], play: Bool, _ reply: PendingReply) {
        QueueEditInSlices(mpris, uris, at: .end, replacing: true) { [weak self] _, paths in
            if play { self?.player.play() }
            reply.finish([paths])
        }.start()
    }

    /// Starts `edit` (an AddTracks or a ReplaceQueue) once those that came before it have answered. A long one
    /// is checked and applied over many turns, and a short one sent after it without waiting for its answer
    /// was queued before it.
    private func inOrder(_ reply: PendingReply, _ edit: @escaping () -> Void) {
        let start = { [weak self] in
            reply.whenAnswered { self?.editAnswered() }
            edit()
        }
        editsInOrder.append(start)
        if editsInOrder.count == 1 { start() }
    }

    private func editAnswered() {
        editsInOrder.removeFirst()
        guard let next = editsInOrder.first else { return }
        EventLoop.main.post(next)
    }

    /// `items` checked (`URIChecksInSlices`), then `apply` with those that passed, which answers.
    private func checkInSlices(_ items: [DBusValue], _ refusals: URIChecksInSlices.Refusals,
                               _ reply: PendingReply,
                               apply: @escaping (_ uris: [String], _ refused: [(uri: String, reason: String)]) throws -> Void) {
        URIChecksInSlices(items, refusals, recognisesMedia: mpris.configuration.recognisesMedia, reply, apply: apply).start()
    }

    /// The tracks named by `paths`, or InvalidArgs naming the first one that is not queued.
    private func queuedTracks(_ paths: [DBusValue]) throws -> [TrackID] {
        try paths.map { value in
            guard let id = mpris.queuedTrack(value) else {
                throw DBusError.invalidArgs("\(value.stringValue ?? "?") is not a track in the queue")
            }
            return id
        }
    }

    /// Up to `count` entries from `start` (none past the end), the current track, and the queue's length.
    private func queue(from start: Int, count: Int) -> [DBusValue] {
        let length = player.queueLength
        let first = min(start, length)
        let page = player.tracks(in: first..<(first + min(count, length - first)))
        let entries = page.map { track in
            let metadata = mpris.metadataMap.metadata(of: track).merging(PlaybackHealthMembers.queueEntries(of: track, in: player)) { $1 }
            return DBusValue.structure([.objectPath(TrackPath.path(of: track.id)), .variantDictionary(metadata)])
        }
        let current = player.currentTrackID.map(TrackPath.path) ?? TrackPath.noTrack
        return [.array(element: "(oa{sv})", entries), .objectPath(current), .uint32(UInt32(clamping: length))]
    }
}

extension Player {
    /// `end`, `next` (after the current track; the end when there is none) or `start`: where AddTracks and the
    /// library's AddQuery put what they add.
    func queuePosition(named text: String) throws -> QueuePosition {
        switch text {
        case "end": return .end
        case "start": return .start
        case "next": return currentTrackID.map { .after($0) } ?? .end
        default: throw DBusError.invalidArgs("position must be \"end\", \"next\" or \"start\", not \"\(text)\"")
        }
    }
}
