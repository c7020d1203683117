import BaseDirectories
import ControlAPI
import EventLoop
import FoundationEssentials
import TagLib

/// The library as the daemon holds it, on the loop thread: the scanner and the folder watch (each on a
/// thread of its own), the catalog searched on the loop, and the scan's progress. Everything the other
/// threads report arrives through `EventLoop.main.post`; `onChange` tells the D-Bus side what to signal.
///
/// Playback and the queue never depend on it: when the index cannot be opened, searches fail with a clear
/// error and nothing else changes.
public final class MusicLibrary {
    public let folders: [String]
    public let index: LibraryIndex
    public private(set) var progress = LibraryScanner.Progress()
    /// Called on the loop after the progress or the index changed.
    public var onChange: () -> Void = {}

    private let note: (String) -> Void
    private var scanner: LibraryScanner!
    private var watch: FolderWatch?
    private var catalogConnection: LibraryCatalog?
    private let reader: CatalogReader

    /// `folders` are absolute (MusicFolders.resolve); nothing runs until `start`.
    public init(folders: [String], index: LibraryIndex, note: @escaping (String) -> Void) {
        self.folders = folders
        self.index = index
        self.note = note
        reader = CatalogReader(index: index)
        scanner = LibraryScanner(index: index, folders: folders.map { Array($0.utf8) }, note: note,
                                 progress: { [weak self] progress in EventLoop.main.post { self?.scanProgressed(progress) } },
                                 changed: { [weak self] in EventLoop.main.post { self?.indexChanged() } })
    }

    /// `$XDG_CACHE_HOME/quaver/library.db`.
    public static func standardIndex(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LibraryIndex {
        LibraryIndex(path: try BaseDirectory.cache.quaverFolder(environment: environment).appendingPathComponent("library.db").path)
    }

    /// Scans every folder, then keeps the index in step with them. With no folder there, nothing could be watched:
    /// the watch's thread is not started (a folder made later is found by `quaver rescan`, as before).
    public func start() {
        scanner.scanAll()
        guard folders.contains(where: MusicFolders.isThere) else { return }
        do {
            let watch = try FolderWatch(folders: folders.map { Array($0.utf8) }, note: note) { [weak scanner] paths in
                scanner?.update(paths)
            }
            watch.start()
            self.watch = watch
        } catch {
            note("live library updates are off (inotify: \(error)); `quaver rescan` picks up changes")
        }
    }

    /// Compares every folder with the index again (`quaver rescan`).
    public func rescan() { scanner.scanAll() }

    /// Stops the watch and the scan under way (at its next batch), and waits for them.
    public func stop() {
        watch?.stop()
        scanner.cancel()
        scanner.waitUntilIdle()
    }

    /// The front cover embedded in the local file at `uri` (TagLib), at most `maximumByteCount` bytes: for the
    /// desktop's search results, read when they are shown.
    public static func embeddedCover(of uri: String, maximumByteCount: Int) -> (data: [UInt8], mimeType: String)? {
        guard let path = FileURI.pathBytes(fromURI: uri),
              let picture = EmbeddedPicture.frontCover(pathBytes: path, maximumByteCount: maximumByteCount) else { return nil }
        return (picture.data, picture.mimeType)
    }

    /// Runs `query` on the library's reading thread (its own connection), then `done` with the result on the loop:
    /// every search, listing and query that queues tracks goes this way, so the loop never waits for the index.
    /// An index not made yet (nothing was ever found to index) is made first, by the scanner; the query is then
    /// handed to the reader from the loop, which alone talks to it.
    public func read<T>(_ query: @escaping (LibraryCatalog) throws -> T, done: @escaping (Result<T, Error>) -> Void) {
        guard index.isMade else {
            return scanner.makeIndex { [reader] in EventLoop.main.post { reader.read(query, done: done) } }
        }
        reader.read(query, done: done)
    }

    /// The MusicBrainz ids the index read from the file at `uri`, for its listens; nil when it is not indexed.
    public func musicBrainzIDs(of uri: String) -> MusicBrainzIDs? {
        guard index.isMade else { return nil }
        return (try? catalog().track(uri: uri))?.musicBrainz
    }

    /// The catalog on the loop, opened on first use (the first scan makes the file): for one track's row by its
    /// URI (a listen's MusicBrainz ids), which the unique index answers at once. Everything else goes to `read`.
    public func catalog() throws -> LibraryCatalog {
        if let catalogConnection { return catalogConnection }
        let opened = LibraryCatalog(try index.openForReading())
        catalogConnection = opened
        return opened
    }

    /// The catalog's connection is opened again: the scanner may have rebuilt the file (a damaged one is
    /// replaced, and a connection opened before would keep reading the old one).
    private func indexChanged() {
        catalogConnection = nil
        reader.reopen()
        onChange()
    }

    private func scanProgressed(_ progress: LibraryScanner.Progress) {
        // After a first scan of 100 000 files quaverd stayed at 99 MB resident (45 MB before it, measured): the
        // scan's lists of files and tags are free by then, and a trim gives their pages back.
        if self.progress.scanning && !progress.scanning { ProcessMemory.giveBackSoon() }
        self.progress = progress
        onChange()
    }
}
