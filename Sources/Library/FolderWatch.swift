import EventLoop
import FoundationEssentials
import Glibc

/// Live updates: every folder under the music folders watched with inotify, on a thread of its own. Paths
/// that changed are gathered until the folders have been quiet for `quietSeconds`, then handed to `changed` in
/// one batch (from the watch's thread), so a copy of an album is one update, not one per file.
///
/// A folder created or moved in is watched from then on (its files are in the batch as the folder's path); a
/// folder moved out or deleted is in the batch too, so its tracks go. When the kernel's queue overflows, the
/// batch is the music folders themselves (everything is compared again).
public final class FolderWatch {
    static let quietSeconds = 0.3
    static let events = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
                               | IN_ATTRIB | IN_ONLYDIR)

    private let folders: [[UInt8]]
    private let changed: ([[UInt8]]) -> Void
    private let note: (String) -> Void
    private let descriptor: Int32
    private let stopPipe: [Int32]
    private var thread: NamedThread?
    /// Watched folders by watch descriptor; the watch's thread alone touches it.
    private var watched: [Int32: [UInt8]] = [:]
    private var saidWatchesRanOut = false

    public init(folders: [[UInt8]], note: @escaping (String) -> Void, changed: @escaping ([[UInt8]]) -> Void) throws {
        self.folders = folders
        self.note = note
        self.changed = changed
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        var ends: [Int32] = [0, 0]
        guard descriptor >= 0, pipe(&ends) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        stopPipe = ends
        ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    }

    deinit {
        close(descriptor)
        stopPipe.forEach { close($0) }
    }

    /// Starts watching (the folders are added on the watch's thread: thousands of folders take a while).
    public func start() {
        thread = NamedThread.start("quaver-folder-watch") { [self] in run() }
    }

    /// Ends the watch's thread and waits for it (at most a second).
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
        let deadline = Date().addingTimeInterval(1)
        while thread?.isFinished == false && Date() < deadline { usleep(1000) }
    }

    private func run() {
        folders.forEach { watchTree($0) }
        var pending = Set<[UInt8]>()
        while true {
            var polled = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
            let ready = poll(&polled, 2, pending.isEmpty ? -1 : Int32(Self.quietSeconds * 1000))
            if polled[1].revents != 0 { return }
            if ready == 0 {
                changed(Array(pending))
                pending.removeAll()
            } else if ready > 0 {
                readEvents(into: &pending)
            }
        }
    }

    /// Reads what the kernel queued: each event is a 16-byte header (wd, mask, cookie, len) and a name of
    /// `len` bytes, NUL-padded (inotify(7)).
    private func readEvents(into pending: inout Set<[UInt8]>) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return }
        var offset = 0
        while offset + 16 <= count {
            let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                 raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                 Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
            }
            let name = Array(buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 })
            offset += 16 + length
            handle(wd: wd, mask: mask, name: name, into: &pending)
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: [UInt8], into pending: inout Set<[UInt8]>) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return pending.formUnion(folders) }
        if mask & UInt32(IN_IGNORED) != 0 { watched[wd] = nil; return }
        guard let folder = watched[wd] else { return }
        let path = name.isEmpty ? folder : folder + [UInt8(ascii: "/")] + name
        // A folder made readable (IN_ATTRIB) could not be watched before: inotify_add_watch needs read access.
        if mask & UInt32(IN_ISDIR) != 0, !name.isEmpty, mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB) != 0 {
            watchTree(path)
        }
        pending.insert(path)
    }

    /// Watches `folder` and every folder under it (links followed, each folder, by device and inode, once).
    private func watchTree(_ folder: [UInt8]) {
        var entered = Set<[UInt64]>()
        var stack = [folder]
        while let next = stack.popLast() {
            var info = stat()
            guard withCString(next, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR,
                  entered.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
            guard addWatch(next) else { continue }
            stack += (FolderWalk.names(in: next) ?? []).map { next + [UInt8(ascii: "/")] + $0 }
        }
    }

    private func addWatch(_ folder: [UInt8]) -> Bool {
        let wd = withCString(folder) { inotify_add_watch(descriptor, $0, Self.events) }
        if wd >= 0 {
            watched[wd] = folder
        } else if errno == ENOSPC && !saidWatchesRanOut {
            saidWatchesRanOut = true
            note("live library updates miss some folders: the system's inotify watches ran out "
                 + "(fs.inotify.max_user_watches); `quaver rescan` picks up their changes")
        }
        return wd >= 0
    }
}
