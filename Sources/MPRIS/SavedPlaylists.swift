import ControlAPI
import DBus
import Dispatch
import EventLoop
import PlayerCore
import PlaylistStore

/// The saved playlists as the bus sees them: org.quaver.Quaver1's playlist methods (`SavedPlaylistMethods`) and
/// the MPRIS Playlists interface (`PlaylistsInterface`), over one listing kept on the loop.
///
/// Every file operation runs on `worker` (a playlist of 20 000 entries takes tens of milliseconds to write or
/// read), one at a time and in the order called; its result is posted back to the loop, which updates the
/// listing, edits the queue and answers. Names are checked on the loop first, so a bad one is refused at once.
public final class SavedPlaylists: PlayerObserver {
    static let interfaceName = ControlAPI.playlistsInterface

    let mpris: MPRISService
    let folder: PlaylistFolder
    private let worker = DispatchQueue(label: "quaver.playlists")
    let now: () -> Int64
    /// Every saved playlist by id, as last read or changed; `listedModification` is the folder's time then.
    private(set) var listing: [String: SavedPlaylist] = [:]
    private var listedModification: Int64 = -1
    private var refreshing = false
    /// The playlist the queue was last loaded from, until the queue is replaced by something else or cleared.
    private(set) var activeID: String?
    private var replacingQueue = false

    /// - Parameter now: seconds since 1970, for a new playlist's creation time.
    public init(mpris: MPRISService, folder: PlaylistFolder, now: @escaping () -> Int64) {
        self.mpris = mpris
        self.folder = folder
        self.now = now
        mpris.batcher.watch(Self.interfaceName) { [weak self] in self?.signalledValues ?? [:] }
        mpris.player.addObserver(self)
        refreshIfChanged()
    }

    public func playerDidChange(_ change: PlayerChange) {
        guard case .queueReplaced = change, !replacingQueue, activeID != nil else { return }
        activeID = nil
        mpris.batcher.markChanged(Self.interfaceName)
    }

    /// Runs `job` on the worker, then `apply` with its result on the loop, which answers; a thrown error is the answer.
    func perform<Result>(_ reply: PendingReply, _ job: @escaping () throws -> Result,
                         then apply: @escaping (Result) throws -> [DBusValue]) {
        worker.async {
            let outcome = Swift.Result { try job() }
            EventLoop.main.post {
                do {
                    reply.finish(try apply(try outcome.get()))
                } catch let error as PlaylistStoreError {
                    reply.fail(Self.dbusError(error))
                } catch {
                    reply.fail(error as? DBusError ?? .failed("\(error)"))
                }
            }
        }
    }

    static func dbusError(_ error: PlaylistStoreError) -> DBusError {
        switch error {
        case .badName, .notFound, .exists: return .invalidArgs(error.description)
        case .file: return .failed(error.description)
        }
    }

    /// A name from a client, or InvalidArgs saying what is wrong with it.
    static func name(_ value: DBusValue) throws -> PlaylistName {
        do {
            return try PlaylistName(value.stringValue ?? "")
        } catch {
            throw dbusError(error)
        }
    }

    // MARK: The listing

    /// Reads the folder again on the worker when something changed it since the last reading (a playlist
    /// copied in by hand); what is asked meanwhile is answered from the listing as it is.
    func refreshIfChanged() {
        let modification = folder.folderModification
        guard modification != listedModification, !refreshing else { return }
        refreshing = true
        let folder = folder
        worker.async {
            let playlists = (try? folder.list()) ?? []
            EventLoop.main.post { [weak self] in
                self?.refreshing = false
                self?.replaceListing(playlists, modification: modification)
            }
        }
    }

    func replaceListing(_ playlists: [SavedPlaylist], modification: Int64) {
        let count = listing.count
        listing = Dictionary(playlists.map { ($0.id, $0) }) { first, _ in first }
        listedModification = modification
        if let activeID, listing[activeID] == nil { self.activeID = nil }
        if listing.count != count { mpris.batcher.markChanged(Self.interfaceName) }
    }

    func playlist(named name: PlaylistName) -> SavedPlaylist? {
        listing.values.first { $0.name == name }
    }

    /// Records a playlist saved, renamed or found; `markChanged` for the count, PlaylistChanged for a new name.
    func update(_ playlist: SavedPlaylist) {
        let old = listing.updateValue(playlist, forKey: playlist.id)
        listedModification = folder.folderModification
        if old == nil { return mpris.batcher.markChanged(Self.interfaceName) }
        guard old?.name != playlist.name else { return }
        mpris.emit(Self.interfaceName, "PlaylistChanged", [Self.value(of: playlist)])
        if activeID == playlist.id { mpris.batcher.markChanged(Self.interfaceName) }
    }

    func forget(_ name: PlaylistName) {
        guard let gone = playlist(named: name) else { return }
        listing[gone.id] = nil
        listedModification = folder.folderModification
        if activeID == gone.id { activeID = nil }
        mpris.batcher.markChanged(Self.interfaceName)
    }

    // MARK: Loading

    /// Reads a playlist on the worker, then replaces the queue with it (or adds it at `position`) in one step on
    /// the loop: its entries are converted to the queue's form on the worker, so the loop only numbers them. The
    /// reply is the number of tracks queued, or nothing (ActivatePlaylist) without `answersCount`.
    func load(_ name: PlaylistName, _ reply: PendingReply, adding position: (() -> QueuePosition)?, play: Bool,
              answersCount: Bool = true) {
        let folder = folder
        perform(reply, { () throws -> (PreparedEntries, Int) in
            let (entries, skipped) = try folder.read(name)
            return (PreparedEntries(entries), skipped.count)
        }, then: { [weak self] prepared, skipped in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            if skipped > 0 { self.mpris.log.notice("playlist \"\(name)\": \(skipped) entries not found, left out") }
            let ids = position.map { self.add(prepared, at: $0()) } ?? self.replace(with: prepared, from: name)
            if play, let first = ids.first {
                self.mpris.player.goTo(first)
                self.mpris.player.play()
            }
            return answersCount ? [.uint32(UInt32(clamping: ids.count))] : []
        })
    }

    private func replace(with entries: PreparedEntries, from name: PlaylistName) -> [TrackID] {
        replacingQueue = true
        defer { replacingQueue = false }
        let ids = mpris.player.replace(with: entries)
        activeID = playlist(named: name)?.id
        mpris.batcher.markChanged(Self.interfaceName)
        return ids
    }

    /// Thousands of tracks are announced as one TrackListReplaced built over several turns, as for AddTracks.
    private func add(_ entries: PreparedEntries, at position: QueuePosition) -> [TrackID] {
        mpris.beginEditInSlices()
        let ids = mpris.player.add(entries, at: position)
        mpris.endEditInSlices {}
        return ids
    }

    // MARK: Values on the bus

    static func value(of playlist: SavedPlaylist?) -> DBusValue {
        guard let playlist else { return .structure([.objectPath(ObjectPath(stringLiteral: ControlAPI.PlaylistPath.none)), .string(""), .string("")]) }
        return .structure([.objectPath(path(of: playlist)), .string(playlist.name.text), .string("")])
    }

    static func path(of playlist: SavedPlaylist) -> ObjectPath {
        ObjectPath(stringLiteral: ControlAPI.PlaylistPath.path(of: playlist.id))
    }

    private var signalledValues: [String: DBusValue] {
        let active = activeID.flatMap { listing[$0] }
        return ["PlaylistCount": .uint32(UInt32(clamping: listing.count)),
                "ActivePlaylist": .structure([.boolean(active != nil), Self.value(of: active)])]
    }

    func signalled(_ name: String) throws -> DBusValue {
        guard let value = signalledValues[name] else { throw DBusError.unknownProperty(name) }
        return value
    }
}
