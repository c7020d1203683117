import ControlAPI
import Dispatch
import EventLoop
import FoundationEssentials
import Glibc
import SQLite
import Synchronization
import TagLib

/// Keeps the index in step with the music folders, on a thread of its own (WorkerThread) with its own connection:
/// the loop thread never waits for a scan (it only receives `Progress` and `changed` through the closures,
/// which are called on the scanner's queue and post to the loop themselves).
///
/// A scan walks the folders (`FolderWalk`), compares each file's size and modification time with the index
/// and reads only the files that differ (TagLib), committing every `batchSize` files; files gone from a
/// folder that is there are removed, while the tracks of a folder that is not there (a disk unmounted) are
/// marked missing and kept. A rescan with nothing changed reads no file.
public final class LibraryScanner {
    public struct Progress: Equatable, Sendable {
        /// A full scan is under way.
        public var scanning = false
        /// Files of this scan found new or changed, to be read.
        public var filesToRead = 0
        public var filesRead = 0
        /// Tracks in the index, counted by the scanner after its writes: the loop never counts them (a count of
        /// 100 000 rows while the scanner wrote held a client's call on the loop).
        public var tracks = 0
        public init() {}
    }

    static let batchSize = 256

    private let queue = WorkerThread(name: "quaver-scan", niceness: 10, idle: true)
    private let index: LibraryIndex
    private let folders: [[UInt8]]
    private let note: (String) -> Void
    private let reportProgress: (Progress) -> Void
    private let reportChange: () -> Void
    private var connection: IndexConnection?
    private var indexIsReadOnly = false
    private var progress = Progress()
    private var lastProgressReport = Date.distantPast
    /// A live update failed and said so; the next failure is not logged until one succeeds.
    private var liveUpdateFailed = false
    /// Files TagLib could not read in the scan or update under way: said in one line at its end.
    private var unread: (count: Int, example: [UInt8]?) = (0, nil)
    /// When the last full scan ended, if it had nothing to write and so made no index: recorded in the index
    /// once something makes it (`openedConnection`), so that `LastScan` says when it was.
    private var scanEndNotRecorded: Int64?

    /// `folders` are absolute paths; nothing runs until `scanAll` or `update`.
    public init(index: LibraryIndex, folders: [[UInt8]], note: @escaping (String) -> Void,
                progress: @escaping (Progress) -> Void, changed: @escaping () -> Void) {
        self.index = index
        self.folders = folders
        self.note = note
        reportProgress = progress
        reportChange = changed
    }

    /// Scans every folder, then calls `done` (on the scanner's queue).
    public func scanAll(done: @escaping () -> Void = {}) {
        queue.async { [self] in
            fullScan()
            done()
        }
    }

    /// Brings the index up to date for `paths` (files or folders, there or gone), as live updates report them.
    public func update(_ paths: [[UInt8]]) {
        queue.async { [self] in
            guard !cancelled.withLock({ $0 }), let connection = openedConnection() else { return }
            var changed = true  // after a failure, what was committed before it is reported
            do {
                changed = try bringUpToDate(Set(paths), in: connection)
                liveUpdateFailed = false
            } catch {
                if !liveUpdateFailed { note("the library index was not updated: \(Self.explain(error))") }
                liveUpdateFailed = true
            }
            noteUnread()
            guard changed else { return }
            report(counting: connection)
            reportChange()
        }
    }

    /// Reads what changed at `paths` and removes what is gone there; in a music folder that is away, its tracks
    /// are kept as missing instead. True when the index changed.
    private func bringUpToDate(_ paths: Set<[UInt8]>, in connection: IndexConnection) throws -> Bool {
        var changed = false
        for (folder, inside) in Self.grouped(paths, by: folders) {
            if Self.isAway(folder) {
                changed = try keepMissing(folder, in: connection) || changed
            } else {
                for path in inside { changed = try scan(path, in: connection) || changed }
            }
        }
        return changed
    }

    /// Waits until everything asked of the scanner so far is done (for tests and shutdown).
    public func waitUntilIdle() { queue.sync() }

    /// Ends the work under way at its next batch and skips what is queued, so that quaverd stops at once
    /// in the middle of a long first scan; what was committed stays, and the next start goes on from there.
    public func cancel() {
        cancelled.withLock { $0 = true }
    }

    private let cancelled = Mutex(false)

    struct Cancelled: Error, CustomStringConvertible {
        var description: String { "quaverd is stopping" }
    }

    /// Makes the index if it is not there yet, then calls `then` (on the scanner's thread): a search asks for
    /// it, so that it reads the file every answer comes from, with the last scan's end in it.
    public func makeIndex(then: @escaping () -> Void) {
        queue.async { [self] in
            _ = openedConnection()
            then()
        }
    }

    private func openedConnection() -> IndexConnection? {
        if let connection { return connection }
        guard !indexIsReadOnly else { return nil }  // said once, at the first open
        do {
            let opened = try index.openForWriting(note: note)
            guard !opened.isReadOnly else {
                indexIsReadOnly = true
                report(counting: opened)  // searched as it is: its size is still signalled
                return nil
            }
            connection = opened
            if let scanEndNotRecorded { try? opened.setLastScanEnd(scanEndNotRecorded) }
            scanEndNotRecorded = nil
            return connection
        } catch {
            note("the library index \(index.path) cannot be opened (\(error)): the library is not updated")
            return nil
        }
    }

    private func fullScan() {
        guard !cancelled.withLock({ $0 }) else { return }
        if connection == nil && !index.isMade && folders.allSatisfy(Self.isAway) { return scanWithoutIndex() }
        guard let connection = openedConnection() else { return }
        progress = Progress()
        progress.scanning = true
        report(counting: connection)
        do {
            for folder in folders {
                if Self.isAway(folder) {
                    try keepMissing(folder, in: connection)
                } else {
                    try scan(folder, in: connection)
                }
            }
            try connection.removeTracks(outside: folders.map { FileURI.encode(pathBytes: $0) })
            try connection.setLastScanEnd(Int64(Date().timeIntervalSince1970))
        } catch is Cancelled {
            return
        } catch {
            note("the library scan stopped: \(Self.explain(error))")
        }
        noteUnread()
        progress.scanning = false
        report(counting: connection)
        connection.releaseCache()
        reportChange()
    }

    /// A full scan with no index and no folder there, or only empty ones (`isAway`; the default `~/Music` on a
    /// machine without one): no track to mark missing or remove, so the index is not made for it and SQLite does not run; the first search or
    /// the first file found makes it. Its progress is reported as its end only: nothing was read, so nothing
    /// is there for the heap trim that the end of a scan under way asks for.
    private func scanWithoutIndex() {
        scanEndNotRecorded = Int64(Date().timeIntervalSince1970)
        progress = Progress()
        reportProgress(progress)
        reportChange()
    }

    /// A music folder that is away (`isAway`): its tracks are marked missing, not dropped, with one line when
    /// some were not marked yet. True when the index changed. A folder never there (no ~/Music yet) is not
    /// worth a line.
    @discardableResult
    private func keepMissing(_ folder: [UInt8], in connection: IndexConnection) throws -> Bool {
        let marked = try connection.markTree(FileURI.encode(pathBytes: folder), missing: true)
        guard marked > 0 else { return false }
        note("the music folder \(String(decoding: folder, as: UTF8.self)) is not there, cannot be read or is empty "
             + "(a disk not mounted?): its \(marked) tracks are kept, marked missing, until `quaver rescan` finds it again")
        return true
    }

    /// A music folder that cannot be read now, or is empty: an unplugged disk or an unmounted NAS leaves its
    /// mount point behind, an empty folder, and reading that as "every file deleted" would drop its tracks.
    static func isAway(_ folder: [UInt8]) -> Bool {
        FolderWalk.names(in: folder)?.isEmpty ?? true
    }

    /// `paths` by the music folder they are in; paths in none are left out.
    static func grouped(_ paths: Set<[UInt8]>, by folders: [[UInt8]]) -> [([UInt8], [[UInt8]])] {
        folders.compactMap { folder in
            let inside = paths.filter { isInside($0, folder) }
            return inside.isEmpty ? nil : (folder, Array(inside))
        }
    }

    /// The line for a failed write: a full disk says what happens next.
    static func explain(_ error: Error) -> String {
        guard let error = error as? SQLiteError, error.isFull else { return "\(error)" }
        return "the disk is full (\(error)); what was read so far is kept, and `quaver rescan` goes on once there is room"
    }

    /// Reads what changed at or under `path` and removes what is gone there. True when the index changed.
    @discardableResult
    private func scan(_ path: [UInt8], in connection: IndexConnection) throws -> Bool {
        let uri = FileURI.encode(pathBytes: path)
        let known = try connection.knownFiles(at: uri)
        try connection.markTree(uri, missing: false)
        var found: [([UInt8], FileState)] = []
        if let state = FileState.of(path) {
            if FolderWalk.isMusic(path) { found.append((path, state)) }
        } else {
            var walk = FolderWalk()
            walk.walk(path) { found.append(($0, $1)) }
            if let first = walk.unreadable.first {
                note("\(walk.unreadable.count) folder(s) cannot be read and are not indexed, such as \(String(decoding: first, as: UTF8.self))")
            }
        }
        var changedFiles: [([UInt8], String, FileState)] = []
        var kept = Set<String>()
        for (file, state) in found {
            let fileURI = FileURI.encode(pathBytes: file)
            kept.insert(fileURI)
            if known[fileURI] != state { changedFiles.append((file, fileURI, state)) }
        }
        let gone = known.keys.filter { !kept.contains($0) }
        try read(changedFiles, into: connection)
        if !gone.isEmpty { try connection.save([], removing: gone) }
        return !changedFiles.isEmpty || !gone.isEmpty
    }

    /// Reads the tags of `files` and saves them, a batch per transaction. A file TagLib cannot read (gone,
    /// unreadable, damaged) is left out; it is read again once it changes.
    private func read(_ files: [([UInt8], String, FileState)], into connection: IndexConnection) throws {
        progress.filesToRead += files.count
        for batch in stride(from: 0, to: files.count, by: Self.batchSize) {
            guard !cancelled.withLock({ $0 }) else { throw Cancelled() }
            let tracks = files[batch..<min(files.count, batch + Self.batchSize)].compactMap { path, uri, state -> LibraryTrack? in
                guard let tags = FileTags.read(pathBytes: path) else {
                    unread = (unread.count + 1, unread.example ?? path)
                    return nil
                }
                return LibraryTrack(uri: uri, path: String(decoding: path, as: UTF8.self), size: state.size,
                                    modified: state.modified, tags: tags)
            }
            try connection.save(tracks)
            progress.filesRead += min(Self.batchSize, files.count - batch)
            reportProgressNow(connection)
        }
    }

    /// Says in one line how many files TagLib could not read since the last time, with one of them.
    private func noteUnread() {
        guard let example = unread.example else { return }
        let why = FileTags.unavailableReason ?? "not readable by quaverd, damaged, or not what their names say"
        note("\(unread.count) file(s) cannot be read (\(why)) and are not indexed, such as "
             + String(decoding: example, as: UTF8.self))
        unread = (0, nil)
    }

    /// Reports a full scan's progress at most every `progressInterval` seconds: each report is a signal, and
    /// a count of the index here.
    private func reportProgressNow(_ connection: IndexConnection) {
        let now = Date()
        guard progress.scanning, now.timeIntervalSince(lastProgressReport) >= Self.progressInterval else { return }
        lastProgressReport = now
        report(counting: connection)
    }

    private func report(counting connection: IndexConnection) {
        progress.tracks = (try? connection.trackCount()) ?? progress.tracks
        reportProgress(progress)
    }

    static let progressInterval = 0.25

    /// Whether `path` is `folder` or inside it.
    static func isInside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        path == folder || (path.starts(with: folder) && path.count > folder.count && path[folder.count] == UInt8(ascii: "/"))
    }
}
