import Glibc

/// The history's changes made while music plays, kept in a small file beside `history.db` (`history.journal`) until
/// they are folded into it (`HistoryDatabase.fold`): writing through SQLite maps libsqlite3 and its WAL, 1.2 MB
/// resident for the write's few milliseconds, and the peak while playing is what users measure (docs/reliability.md).
///
/// One change a line (`JournalLine`), each appended with one `write(2)` on a file opened `O_APPEND`, so what was
/// appended survives a `kill -9` as a committed transaction would; a line cut short by a kill during its write fails
/// its checksum and is skipped. The first line names the journal (a random id), so that the file remembers which
/// journal it has folded and how far, and a fold cut short between its commit and the journal's removal is not
/// applied twice. Used on the history queue only.
public final class HistoryJournal {
    public let path: String
    /// Whether a journal is there to fold (one a killed daemon left, at start).
    public var isThere: Bool { access(path, F_OK) == 0 }

    /// Changes appended since the journal was last folded (by this process).
    private(set) var appended = 0

    /// The journal beside the history file at `historyPath` (`history.db` → `history.journal`).
    public init(besideHistoryAt historyPath: String) {
        let stem = historyPath.hasSuffix(".db") ? String(historyPath.dropLast(3)) : historyPath
        path = stem + ".journal"
    }

    /// What a journal holds: its id, its changes in order, and how many lines failed their check.
    struct Contents {
        let id: String
        let changes: [HistoryChange]
        let unreadable: Int
    }

    /// Appends `change` with one `write(2)`, after the journal's first line when it is new, and after a newline when
    /// the last line was cut short (so that line stays the only one lost). Returns the journal's size in bytes.
    func append(_ change: HistoryChange) throws(JournalError) -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw JournalError(doing: "open", path: path) }
        defer { close(descriptor) }
        let size = Self.size(descriptor)
        var text = size == 0 ? JournalLine.header(Self.newID()) : Self.endsLine(descriptor, size: size) ? "" : "\n"
        text += JournalLine.encode(change)
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw JournalError(doing: "write", path: path)
        }
        appended += 1
        return size + bytes.count
    }

    /// The journal's contents; nil when there is none (nothing to fold).
    func read() throws(JournalError) -> Contents? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw JournalError(doing: "open", path: path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < Self.readLimit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw JournalError(doing: "read", path: path) }
            if count == 0 { return Self.contents(String(decoding: bytes, as: UTF8.self)) }
            bytes += chunk.prefix(count)
        }
        // Not a journal of ours (a fold comes at its bound): what lies past the limit is dropped, counted as one line.
        let contents = Self.contents(String(decoding: bytes.prefix(Self.readLimit), as: UTF8.self))
        return Contents(id: contents.id, changes: contents.changes, unreadable: contents.unreadable + 1)
    }

    /// The most of a journal read: one of ours is folded at `HistoryRecorder.journalBound`, so it is under that
    /// plus its last line, a queueing of 2 000 tracks at most (the player adds in slices), 8 MiB even for the
    /// longest paths; a bigger file was put there by something else and must not fill the daemon's memory.
    static let readLimit = 16 << 20

    /// Removes the journal once its changes are in the file; the next append starts a new one.
    func remove() throws(JournalError) {
        appended = 0
        guard unlink(path) == 0 || errno == ENOENT else { throw JournalError(doing: "remove", path: path) }
    }

    /// Lines are read up to the last newline; what follows it (a line cut short) is counted unreadable.
    static func contents(_ text: String) -> Contents {
        var id = "", changes: [HistoryChange] = [], unreadable = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let fields = JournalLine.fields(line) else {
                unreadable += 1
                continue
            }
            if index == 0, fields.count == 2, fields[0] == "journal" {
                id = fields[1] ?? ""
            } else if let change = JournalLine.change(fields) {
                changes.append(change)
            } else {
                unreadable += 1
            }
        }
        return Contents(id: id, changes: changes, unreadable: unreadable)
    }

    private static func size(_ descriptor: Int32) -> Int {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func endsLine(_ descriptor: Int32, size: Int) -> Bool {
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, off_t(size - 1)) == 1 && last == UInt8(ascii: "\n")
    }

    private static func newID() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 16)
    }
}

/// A journal that cannot be opened, written, read or removed: the call and `errno`'s text.
public struct JournalError: Error, CustomStringConvertible {
    public let description: String

    init(doing call: String, path: String) {
        description = "cannot \(call) \(path): \(String(cString: strerror(errno)))"
    }
}
