// The MPRIS adapter: the object at /org/mpris/MediaPlayer2, one file per interface.
//
//   D-Bus client ──method / Properties.Set──▶ interface handlers ──commands──▶ Player (core)
//        ▲                                                                     │
//        └── PropertiesChanged (PropertiesBatcher, once per loop turn) ◀── PlayerChange
//        └── Seeked, TrackList signals ◀─────────────────────────────────────┘
//
// Handlers and getters only read and command the core; nothing here keeps playback state of its own,
// so what clients read is always what the core holds (Position is read live on every Get).
//
// An adapter: may import PlayerCore, ControlAPI, DBus, EventLoop, PublicText and swift-log; no C module.
import ControlAPI
import DBus
import EventLoop
import Logging
import PlayerCore
import PublicText

public final class MPRISService: PlayerObserver {
    static let objectPath = ObjectPath(stringLiteral: ControlAPI.objectPath)
    static let rootInterface = ControlAPI.rootInterface
    static let playerInterface = ControlAPI.playerInterface
    static let trackListInterface = ControlAPI.trackListInterface

    public struct Configuration {
        /// SupportedMimeTypes: what the installed GStreamer can decode. Asked for when a client first reads
        /// the property, not at start-up, where the registry walk was 13 % of the CPU time (perf).
        public var supportedMimeTypes: () -> [String]
        public var artwork: ArtworkCache
        /// Called by the root interface's Quit.
        public var quit: () -> Void
        /// Whether a local file's first bytes look like media we can play: a file that does not is
        /// refused before the queue changes, instead of queued, failed and skipped past the track playing.
        public var recognisesMedia: (([UInt8]) -> Bool)?

        public init(supportedMimeTypes: @escaping () -> [String], artwork: ArtworkCache, quit: @escaping () -> Void,
                    recognisesMedia: (([UInt8]) -> Bool)? = nil) {
            self.supportedMimeTypes = supportedMimeTypes
            self.artwork = artwork
            self.quit = quit
            self.recognisesMedia = recognisesMedia
        }
    }

    let player: Player
    let connection: Connection
    let configuration: Configuration
    let metadataMap: MetadataMap
    private(set) lazy var supportedMimeTypes = configuration.supportedMimeTypes()
    let log = Logger(label: "quaver.mpris")
    private(set) lazy var batcher = PropertiesBatcher { [weak self] interface, changed, invalidated in
        self?.emitPropertiesChanged(interface, changed, invalidated)
    }
    /// Tracks whose metadata changed this loop turn: one TrackMetadataChanged each at the flush.
    var tracksWithNewMetadata: [TrackID] = []
    /// Tracks removed this loop turn, announced at the flush (`announceRemoved`).
    var tracksRemoved: [TrackID] = []
    /// Queue edits applied in slices under way (`editingInSlices`): their track-list signals wait for the end.
    private var editsInSlices = 0
    private var trackListChangedMeanwhile = false

    /// The listening history, published in Metadata and rated through org.quaver.Quaver1; nil: none is kept.
    public weak var listeningHistory: ListeningStatisticsSource? {
        didSet { metadataMap.statistics = listeningHistory }
    }

    /// The three MPRIS interfaces, to export at `objectPath` together with any interfaces of our own.
    public private(set) var interfaces: [InterfaceDescription] = []

    public init(player: Player, connection: Connection, configuration: Configuration) {
        self.player = player
        self.connection = connection
        self.configuration = configuration
        metadataMap = MetadataMap(artwork: configuration.artwork)
        interfaces = [makeRootInterface(), makePlayerInterface(), makeTrackListInterface()]
        batcher.watch(Self.playerInterface) { [weak self] in self?.signalledPlayerProperties() ?? [:] }
        batcher.beforeFlush.append { [weak self] in self?.announceRemoved() }
        batcher.beforeFlush.append { [weak self] in self?.emitTrackMetadataChanges() }
        player.addObserver(self)
    }

    /// The exported object with the MPRIS interfaces followed by `extraInterfaces` (the daemon's own).
    public func exportedObject(adding extraInterfaces: [InterfaceDescription] = []) -> ExportedObject {
        ExportedObject(path: Self.objectPath, interfaces: interfaces + extraInterfaces)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .seeked(let position):
            emit(Self.playerInterface, "Seeked", [.int64(position.microseconds)])
        case .tracksAdded(let ids, let after):
            trackListChanged { announceAdded(ids, after: after) }
        case .trackRemoved(let id):
            metadataMap.forget(id)
            trackListChanged { tracksRemoved.append(id) }
        case .trackMoved, .queueReplaced:
            guard editsInSlices > 0 || player.queueLength <= TrackPathsInSlices.sliceSize else {
                // A library's track list (a restored queue of 100 000, a move in it) is built over several
                // turns, as at the end of a long edit: in one turn it held every other caller for 30 ms.
                beginEditInSlices()
                trackListChangedMeanwhile = true
                return endEditInSlices {}
            }
            trackListChanged { announceRemoved(); announceReplaced() }
        case .metadata(let id):
            metadataMap.trackChanged(id)
            if !tracksWithNewMetadata.contains(id) { tracksWithNewMetadata.append(id) }
            batcher.markChanged(Self.playerInterface)
        case .trackFailed(let id, let error):
            let uri = player.track(id)?.uri ?? player.lastError.flatMap { $0.track == id ? $0.uri : nil } ?? "\(id)"
            // Masked here as one URL: the log handler reads free text, where a value ends at a quote.
            log.warning("cannot play \(PublicText.url(uri)): \(error)")
        case .currentTrack(let id):
            metadataMap.keepBuilt(onlyOf: id)
            batcher.markChanged(Self.playerInterface)
        case .status, .state, .volume, .rate, .loopMode, .shuffle, .capabilities, .buffering:
            batcher.markChanged(Self.playerInterface)
        case .bufferedRanges:
            break  // org.quaver.Quaver1's alone (PlaybackHealthMembers)
        }
    }

    /// A queue edit applied over several loop turns (AddTracks of 100 000) begins; `endEditInSlices` follows
    /// its last slice. Meanwhile the track list is not announced change by change: one TrackListReplaced
    /// is sent at the end.
    func beginEditInSlices() {
        editsInSlices += 1
    }

    /// Calls `finished` once the edit's TrackListReplaced (if any) is sent. Its track list is built over
    /// several turns while the edit still counts as under way, so no other track-list signal goes out in
    /// between; if the queue changed meanwhile, the signal is built again from the queue as it is then.
    func endEditInSlices(then finished: @escaping () -> Void) {
        guard editsInSlices == 1, trackListChangedMeanwhile else {
            editsInSlices -= 1
            return finished()
        }
        TrackPathsInSlices(player.trackIDs) { [weak self] ids, paths in
            defer { finished() }
            guard let self else { return }
            self.editsInSlices -= 1
            self.trackListChangedMeanwhile = false
            let unchanged = self.player.trackIDs == ids
            self.trackListChanged { self.announceRemoved(); self.announceReplaced(paths: unchanged ? paths : nil) }
        }.start()
    }

    private func trackListChanged(_ announce: () -> Void) {
        guard editsInSlices == 0 else {
            trackListChangedMeanwhile = true
            return
        }
        announce()
        batcher.invalidate("Tracks", in: Self.trackListInterface)
        batcher.markChanged(Self.playerInterface)  // CanGoNext and CanGoPrevious follow the queue
    }

    func emit(_ interface: String, _ name: String, _ arguments: [DBusValue]) {
        do {
            try connection.emitSignal(path: Self.objectPath, interface: interface, name: name, arguments: arguments)
        } catch {
            log.error("cannot send \(interface).\(name): \(error)")
        }
    }

    private func emitPropertiesChanged(_ interface: String, _ changed: [String: DBusValue], _ invalidated: [String]) {
        do {
            try connection.emitPropertiesChanged(path: Self.objectPath, interface: interface, changed: changed,
                                                 invalidated: invalidated)
        } catch {
            log.error("cannot send PropertiesChanged for \(interface): \(error)")
        }
    }
}

// MARK: Helpers for the interface files

extension MPRISService {
    typealias Method = InterfaceDescription.Method
    typealias Property = InterfaceDescription.Property
    typealias Argument = InterfaceDescription.Argument

    /// A method whose handler holds the service weakly (the connection keeps the exported object alive).
    func method(_ name: String, _ inputs: [Argument] = [], outputs: [Argument] = [],
                _ body: @escaping (MPRISService, [DBusValue]) throws -> [DBusValue]) -> Method {
        Method(name: name, inputs: inputs, outputs: outputs) { [weak self] call in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return try body(self, call.arguments)
        }
    }

    /// A method with no reply values.
    func command(_ name: String, _ inputs: [Argument] = [], _ body: @escaping (MPRISService, [DBusValue]) throws -> Void)
        -> Method {
        method(name, inputs) { service, arguments in
            try body(service, arguments)
            return []
        }
    }

    func property(_ name: String, _ type: Signature, _ get: @escaping (MPRISService) -> DBusValue,
                  set: ((MPRISService, DBusValue) throws -> Void)? = nil) -> Property {
        guard let set else { return Property(name: name, type: type, get: reading(get)) }
        return Property(name: name, type: type, access: .readWrite, get: reading(get), set: setting(set))
    }

    /// `b`, `d`, `x` and `s` properties, written into GetAll's reply from the Swift value (`Property.Reading`).
    func property(_ name: String, _ get: @escaping (MPRISService) -> Bool,
                  set: ((MPRISService, DBusValue) throws -> Void)? = nil) -> Property {
        Property(name: name, get: reading(get), set: set.map(setting))
    }

    func property(_ name: String, _ get: @escaping (MPRISService) -> Double,
                  set: ((MPRISService, DBusValue) throws -> Void)? = nil) -> Property {
        Property(name: name, get: reading(get), set: set.map(setting))
    }

    func property(_ name: String, _ get: @escaping (MPRISService) -> Int64) -> Property {
        Property(name: name, get: reading(get))
    }

    func property(_ name: String, _ get: @escaping (MPRISService) -> String,
                  set: ((MPRISService, DBusValue) throws -> Void)? = nil) -> Property {
        Property(name: name, get: reading(get), set: set.map(setting))
    }

    /// A getter holding the service weakly (the connection keeps the exported object alive).
    private func reading<Value>(_ get: @escaping (MPRISService) -> Value) -> () throws -> Value {
        { [weak self] in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return get(self)
        }
    }

    private func setting(_ set: @escaping (MPRISService, DBusValue) throws -> Void) -> (DBusValue) throws -> Void {
        { [weak self] value in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            try set(self, value)
        }
    }

    /// LimitsExceeded when `count` more tracks would make the queue longer than `InputLimits.maximumQueueLength`.
    func checkRoom(for count: Int) throws {
        let length = player.queueLength
        guard length + count > InputLimits.maximumQueueLength else { return }
        throw DBusError.limitsExceeded("the queue holds \(length) tracks and \(count) more would pass the limit of "
                                       + "\(InputLimits.maximumQueueLength); the queue is unchanged")
    }

    /// The track a client names, or nil for NoTrack, a foreign path or a track no longer queued. Looked up
    /// by its place, without building the `Track`: RemoveTracks of 100 000 ids took 230 ms that way.
    func queuedTrack(_ value: DBusValue) -> TrackID? {
        guard let path = value.objectPathValue, let id = TrackPath.id(of: path), player.index(of: id) != nil else {
            return nil
        }
        return id
    }

    /// The current track's map is answered from the one kept (`MetadataMap.keptValue`); any other track's is built
    /// from the queue, which also says when a client's id names a track no longer queued.
    func metadata(of id: TrackID?) -> DBusValue {
        guard let id else { return .variantDictionary([:]) }
        if id == player.currentTrackID, let kept = metadataMap.keptValue(of: id) { return kept }
        return player.track(id).map(metadataMap.value(of:)) ?? .variantDictionary([:])
    }

    /// `metadata(of:)` prepared for writing: the current track's is prepared once and kept with its map, and
    /// the empty map of no track is one value, so a stopped player's GetAll is answered as kept too (`KeptReply`).
    func preparedMetadata(of id: TrackID?) throws -> PreparedValue {
        guard let id else { return Self.noMetadata }
        guard id == player.currentTrackID else { return try PreparedValue(metadata(of: id)) }
        if let kept = metadataMap.keptPrepared(of: id) { return kept }
        let value = metadata(of: id)  // builds the current track's map and keeps it
        return try metadataMap.keptPrepared(of: id) ?? PreparedValue(value)
    }

    private static let noMetadata = try! PreparedValue(.variantDictionary([:]))  // an empty a{sv} passes every check
}
