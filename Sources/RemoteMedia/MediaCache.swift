import BaseDirectories
import EventLoop
import FoundationEssentials
import Glibc

/// Remote files kept on disk while they play, so that they resume and replay without the network.
/// Entries are named by a hash of their URL without credentials (`CacheEntry`). The present bytes of every
/// entry, the ones downloads have open included, stay under `capacityBytes` while downloads grow: a write
/// first makes room by removing the least recently played closed entries (`reserve`), and a download that
/// still finds none gives back what it holds away from its reader (RemoteDownload+Room). Below
/// `minimumFreeBytes` free on the disk a write fails instead.
///
/// The folder is opened once without following a link and checked to be the user's own; every file in it
/// is reached from that descriptor (`openat`, `unlinkat`, `renameat`), never by a path that could lead out.
public final class MediaCache: @unchecked Sendable {
    public let directory: URL
    public let capacityBytes: UInt64
    public let minimumFreeBytes: UInt64
    /// False for a scratch cache (`scratch`): every entry is deleted as its download closes.
    public let keepsEntries: Bool
    /// The free space a download never goes below: a full disk breaks the user's other programs.
    public static let defaultMinimumFreeBytes: UInt64 = 64 << 20
    /// The folder's descriptor (O_DIRECTORY, O_NOFOLLOW); entries open their files relative to it.
    let folder: Int32
    private let lock = ConditionLock()
    /// Present bytes of each entry a download has open, by file name (`CacheEntry.key`).
    private var openBytes: [String: UInt64] = [:]
    /// Present bytes and last play of the closed entries, read from their sidecars on first need.
    private var closedEntries: [String: (bytes: UInt64, lastUsed: Double)]?
    /// Set under `lock` when the scratch folder's removal begins: from then on no name is added to the folder.
    private var folderRemoved = false

    /// Opens `directory` (e.g. `$XDG_CACHE_HOME/quaver/media`), creating it 0700 if missing. It holds what the
    /// user listens to: an existing one with wider modes is made 0700, and one that is a symbolic link, is not
    /// a folder, belongs to another user or is writable by others is refused (`CacheError`): entries planted
    /// there would be played instead of the server's bytes.
    public init(directory: URL, capacityBytes: UInt64, minimumFreeBytes: UInt64 = MediaCache.defaultMinimumFreeBytes,
                keepsEntries: Bool = true) throws {
        self.directory = directory
        self.capacityBytes = capacityBytes
        self.minimumFreeBytes = minimumFreeBytes
        self.keepsEntries = keepsEntries
        do {
            folder = try OwnFolder.open(directory)
        } catch let refusal as OwnFolder.Refusal {
            throw CacheError("refusing the media cache \(directory.path): \(refusal)")
        }
    }

    /// `$XDG_CACHE_HOME/quaver/media`: the daemon's cache, when `[network] cache-size-mb` is not 0.
    public static func standardFolder() throws -> URL {
        try BaseDirectory.cache.quaverFolder().appendingPathComponent("media", isDirectory: true)
    }

    /// A cache that keeps nothing, for a daemon without one (`cache-size-mb = 0`, or its folder refused): a
    /// fresh private folder (`mkdtemp`, 0700) under `temporaryRoot`, whose entries are deleted as their
    /// downloads close and which is removed with the cache. Remote files then still arrive through our own
    /// download, never through GStreamer's souphttpsrc, whose teardown mid-request crashes the process
    /// (docs/platform.md, "souphttpsrc stopped mid-request").
    /// Upstream: no issue found; not retested after GStreamer 1.22.0 and libsoup 3.2.3 (souphttpsrc's `unlock`
    /// still cancels from the calling thread in 1.29.2).
    public static func scratch(capacityBytes: UInt64, in temporaryRoot: URL) throws -> MediaCache {
        var template = Array(temporaryRoot.appendingPathComponent("quaver-media.XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw CacheError("cannot make a scratch folder in \(temporaryRoot.path): \(String(cString: strerror(errno)))")
        }
        return try MediaCache(directory: URL(fileURLWithPath: String(cString: made)), capacityBytes: capacityBytes,
                              keepsEntries: false)
    }

    /// A scratch cache's folder removed now, with whatever is in it (the daemon's exit, when a download thread
    /// may still hold the cache): such a download writes on into a file no name leads to, and fails if it
    /// opens another. Nothing for a cache that keeps its entries.
    public func removeScratchFolder() {
        guard !keepsEntries else { return }
        lock.withLock { folderRemoved = true }
        // Names only go from here on (a download's discard may race this one): each is unlinked, a missing one
        // ignored, and the folder is then empty.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            unlinkat(folder, name, 0)
        }
        rmdir(directory.path)
    }

    /// Runs `add`, which adds a name to the folder (a file created, or renamed into place). In a scratch cache it
    /// runs under the lock, unless the folder's removal has begun: then nil, with errno ENOENT. A download thread
    /// that outlives the daemon's exit cannot leave a file behind in the folder being removed (its next sidecar
    /// did once, in a full run, between the emptying and the rmdir). A cache that keeps its entries is never
    /// removed, so its file operations do not hold the lock the other downloads' accounting waits on.
    @discardableResult
    func addingToFolder<Result>(_ add: () -> Result) -> Result? {
        guard !keepsEntries else { return add() }
        return lock.withLock {
            guard !folderRemoved else {
                errno = ENOENT
                return nil
            }
            return add()
        }
    }

    deinit {
        removeScratchFolder()
        close(folder)
    }

    /// The data file of `url`, for tests and tools.
    public func dataFile(for url: String) -> URL {
        directory.appendingPathComponent(CacheEntry.key(for: RemoteURL.withoutCredentials(url)) + ".data")
    }

    /// The sidecar of `url`, for tests and tools.
    public func sidecarFile(for url: String) -> URL {
        directory.appendingPathComponent(CacheEntry.key(for: RemoteURL.withoutCredentials(url)) + ".json")
    }

    /// The entry of `url`, named and recorded without its credentials, counted as open until `release`.
    func entry(for url: String) throws -> CacheEntry {
        let entry = try CacheEntry(url: RemoteURL.withoutCredentials(url), cache: self)
        lock.withLock {
            loadClosedEntries()
            closedEntries?[entry.name] = nil
            openBytes[entry.name] = entry.present.byteCount
        }
        return entry
    }

    /// Closes `entry`: saved and kept (then room is made), or removed when it is not worth keeping.
    func release(_ entry: CacheEntry, keep wanted: Bool) {
        let keep = wanted && keepsEntries
        if keep { entry.save() } else { entry.discard() }
        lock.withLock {
            openBytes[entry.name] = nil
            if keep { closedEntries?[entry.name] = (entry.present.byteCount, entry.sidecar.lastUsed) }
            _ = makeRoom(for: 0)
        }
    }

    /// Room for `count` more bytes in the open `entry`: true once the least recently played closed entries
    /// that had to go are gone, and the bytes are counted; false when open entries fill the cache. Throws
    /// when the disk would have less than `minimumFreeBytes` free.
    func reserve(_ count: UInt64, for entry: CacheEntry) throws -> Bool {
        try checkFreeSpace(for: count)
        return lock.withLock {
            openBytes[entry.name] = entry.present.byteCount
            guard makeRoom(for: count) else { return false }
            openBytes[entry.name, default: 0] += count
            return true
        }
    }

    /// Whether `count` more bytes would fit in the open `entry` once it holds only `present` bytes and
    /// closed entries are removed (nothing is removed).
    func hasRoom(for count: UInt64, in entry: CacheEntry, holding present: UInt64) -> Bool {
        lock.withLock {
            openBytes.reduce(0) { $0 + ($1.key == entry.name ? present : $1.value) } + count <= capacityBytes
        }
    }

    private func checkFreeSpace(for count: UInt64) throws {
        var info = statvfs()
        guard fstatvfs(folder, &info) == 0 else { return }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        guard free < minimumFreeBytes + count else { return }
        throw CacheError("the disk of \(directory.path) is nearly full (\(free >> 20) MiB free; "
                         + "downloads keep \(minimumFreeBytes >> 20) MiB free)")
    }

    /// Removes closed entries, least recently played first, until `count` more bytes fit (under lock).
    private func makeRoom(for count: UInt64) -> Bool {
        loadClosedEntries()
        var total = openBytes.values.reduce(0, +) + (closedEntries ?? [:]).values.reduce(0) { $0 + $1.bytes }
        let oldestFirst = (closedEntries ?? [:]).sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (name, closed) in oldestFirst where total + count > capacityBytes {
            unlinkat(folder, name + ".json", 0)
            unlinkat(folder, name + ".data", 0)
            closedEntries?[name] = nil
            total -= closed.bytes
        }
        return total + count <= capacityBytes
    }

    /// Reads every sidecar once (under lock); later the index is kept up to date as entries close.
    private func loadClosedEntries() {
        guard closedEntries == nil else { return }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        closedEntries = [:]
        for name in names where openBytes[name] == nil {
            guard let sidecar = CacheEntry.readSidecar(name + ".json", in: folder) else { continue }
            closedEntries?[name] = (sidecar.present.byteCount, sidecar.lastUsed)
        }
    }
}
