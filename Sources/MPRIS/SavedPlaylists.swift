import ControlAPI
import DBus
import Dispatch
import EventLoop
import Library
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
    /// The cover beside each playlist's first track, looked up on the worker with listings of its own (the adapter's
    /// `ArtworkCache` belongs to the loop); `icons` by playlist id, on the loop.
    private let workerArtwork: ArtworkCache
    private(set) var icons: [String: String] = [:]
    let now: () -> Int64
    /// Every saved playlist by id, as last read or changed; `listedModification` is the folder's time then.
    private(set) var listing: [String: SavedPlaylist] = [:]
    /// Playlists found among the music (`FoundPlaylists`), read-only, by id; a saved one of the same name hides one.
    private(set) var found: [String: SavedPlaylist] = [:]
    private var listedModification: Int64 = -1
    private var refreshing = false
    /// The playlist the queue was last loaded from, until the queue is replaced by something else or cleared.
    private(set) var activeID: String?
    private var replacingQueue = false
    /// The music library, for the smart playlists that need it (recently added, never played).
    public var library: MusicLibrary? {
        didSet { mpris.batcher.markChanged(Self.interfaceName) }
    }

    /// - Parameter now: seconds since 1970, for a new playlist's creation time.
    public init(mpris: MPRISService, folder: PlaylistFolder, now: @escaping () -> Int64) {
        self.mpris = mpris
        self.folder = folder
        self.now = now
        workerArtwork = ArtworkCache(directory: mpris.configuration.artwork.directory)
        mpris.batcher.watch(Self.interfaceName) { [weak self] in self?.signalledValues ?? [:] }
        mpris.player.addObserver(self)
        refreshIfChanged()
        refreshFound()
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
        // No folder (0) and nothing listed: reading it would list nothing; no worker thread is started for that.
        guard modification != 0 || !listing.isEmpty else { return replaceListing([], modification: 0) }
        refreshing = true
        let folder = folder
        worker.async { [workerArtwork] in
            let playlists = (try? folder.list()) ?? []
            let icons = Self.icons(of: playlists, workerArtwork)
            EventLoop.main.post { [weak self] in
                self?.refreshing = false
                self?.icons.merge(icons) { $1 }
                self?.replaceListing(playlists, modification: modification)
            }
        }
    }

    /// Looks for playlists among the music again, on the worker (at start, and for each ListPlaylists).
    func refreshFound() {
        let folders = folder.musicFolders
        // With no music folder there (the default ~/Music, not made), there is nothing to walk, and none found yet.
        guard folders.contains(where: MusicFolders.isThere) || !found.isEmpty else { return }
        worker.async { [workerArtwork] in
            let playlists = FoundPlaylists.find(in: folders)
            let icons = Self.icons(of: playlists, workerArtwork)
            EventLoop.main.post { [weak self] in
                guard let self else { return }
                self.icons.merge(icons) { $1 }
                let count = self.found.count
                self.found = Dictionary(playlists.map { ($0.id, $0) }) { first, _ in first }
                if self.found.count != count { self.mpris.batcher.markChanged(Self.interfaceName) }
            }
        }
    }

    /// On the worker: the `file://` URL of the cover beside each playlist's first track, where there is one.
    private static func icons(of playlists: [SavedPlaylist], _ artwork: ArtworkCache) -> [String: String] {
        var icons: [String: String] = [:]
        for playlist in playlists {
            icons[playlist.id] = playlist.firstURI.flatMap { artwork.folderCover(besides: $0)?.absoluteString }
        }
        return icons
    }

    /// The icon of one playlist just saved, on the worker.
    func icon(of playlist: SavedPlaylist) -> String? {
        Self.icons(of: [playlist], workerArtwork)[playlist.id]
    }

    func replaceListing(_ playlists: [SavedPlaylist], modification: Int64) {
        let count = listing.count
        listing = Dictionary(playlists.map { ($0.id, $0) }) { first, _ in first }
        listedModification = modification
        if let activeID, listing[activeID] == nil { self.activeID = nil }
        if listing.count != count { mpris.batcher.markChanged(Self.interfaceName) }
    }

    /// Quaver's own playlist of that name, else one found among the music.
    func playlist(named name: PlaylistName) -> SavedPlaylist? {
        listing.values.first { $0.name == name } ?? found.values.first { $0.name == name }
    }

    /// A name that only a playlist found among the music has: it cannot be removed or renamed.
    func refuseIfFound(_ name: PlaylistName) throws {
        guard let playlist = playlist(named: name), let path = playlist.foundAt else { return }
        throw DBusError.invalidArgs("\"\(name)\" is a playlist found among the music (\(path)), which Quaver does not change; "
                                    + "save the queue under its name to make one of Quaver's own")
    }

    /// Records a playlist saved or renamed; `markChanged` for the count, PlaylistChanged for a new name or icon.
    func update(_ playlist: SavedPlaylist, icon: String?) {
        let oldIcon = icons.updateValue(icon ?? "", forKey: playlist.id)
        let old = listing.updateValue(playlist, forKey: playlist.id)
        listedModification = folder.folderModification
        if old == nil { return mpris.batcher.markChanged(Self.interfaceName) }
        guard old?.name != playlist.name || oldIcon != icon ?? "" else { return }
        mpris.emit(Self.interfaceName, "PlaylistChanged", [value(of: playlist)])
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
        let folder = folder, foundAt = playlist(named: name)?.foundAt
        perform(reply, { () throws -> (PreparedEntries, Int) in
            let (entries, skipped) = try folder.read(name, found: foundAt)
            return (PreparedEntries(entries), skipped.count)
        }, then: { [weak self] prepared, skipped in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            if skipped > 0 { self.mpris.log.notice("playlist \"\(name)\": \(skipped) entries not found, left out") }
            let ids = position.map { self.add(prepared, at: $0()) }
                ?? self.replace(with: prepared, activating: self.playlist(named: name)?.id)
            if play, let first = ids.first {
                self.mpris.player.goTo(first)
                self.mpris.player.play()
            }
            return answersCount ? [.uint32(UInt32(clamping: ids.count))] : []
        })
    }

    func replace(with entries: PreparedEntries, activating id: String?) -> [TrackID] {
        replacingQueue = true
        defer { replacingQueue = false }
        let ids = mpris.player.replace(with: entries)
        activeID = id
        if let id { mpris.listeningHistory?.playlistPlayed(id) }
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

    /// Saved playlists, and those found among the music that no saved one hides.
    var fileBacked: [SavedPlaylist] {
        let saved = Set(listing.values.map(\.name))
        return Array(listing.values) + found.values.filter { !saved.contains($0.name) }
    }

    /// Saved, found and smart playlists together, as MPRIS lists them.
    var everyPlaylist: [SavedPlaylist] {
        fileBacked + smartPlaylists.compactMap(\.listed)
    }

    // MARK: Values on the bus

    /// A `Playlist` (`(oss)`: id, name, icon URL or empty); the spec's invalid one for none.
    func value(of playlist: SavedPlaylist?) -> DBusValue {
        guard let playlist else {
            return .structure([.objectPath(ObjectPath(stringLiteral: ControlAPI.PlaylistPath.none)), .string(""), .string("")])
        }
        return .structure([.objectPath(Self.path(of: playlist)), .string(playlist.name.text), .string(icons[playlist.id] ?? "")])
    }

    static func path(of playlist: SavedPlaylist) -> ObjectPath {
        ObjectPath(stringLiteral: ControlAPI.PlaylistPath.path(of: playlist.id))
    }

    private var signalledValues: [String: DBusValue] {
        let active = activeID.flatMap { id in everyPlaylist.first { $0.id == id } }
        return ["PlaylistCount": .uint32(UInt32(clamping: everyPlaylist.count)),
                "ActivePlaylist": .structure([.boolean(active != nil), value(of: active)])]
    }

    func signalled(_ name: String) throws -> DBusValue {
        guard let value = signalledValues[name] else { throw DBusError.unknownProperty(name) }
        return value
    }
}
