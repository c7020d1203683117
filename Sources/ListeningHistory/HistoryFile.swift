import BaseDirectories
import FoundationEssentials
import Glibc
import SQLite

extension HistoryDatabase {
    /// `$XDG_STATE_HOME/quaver/history.db`: beside the session, not in the cache, because nothing else has what is in
    /// it, and apart from the library index, so losing or rebuilding that never touches it.
    public static func standardPath() throws -> String {
        try BaseDirectory.state.quaverFolder().appendingPathComponent("history.db").path
    }

    /// Whether the history at `path` is made (`Database.isMade`): until its first write, nothing is in it to read.
    public static func isMade(at path: String) -> Bool { Database.isMade(at: path) }

    /// Opens the history at `path`, making its folder if needed. A file SQLite finds corrupt is renamed
    /// `history.db.corrupt-<time>` (with its `-wal`) and a new one started: `setAside` says so.
    public static func open(path: String, now: Int64, setAside: (String) -> Void) throws -> HistoryDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            return try HistoryDatabase(path: path)
        } catch let error as SQLiteError where error.isCorrupt {
            let corrupt = "\(path).corrupt-\(now)"
            rename(path, corrupt)
            rename(path + "-wal", corrupt + "-wal")
            unlink(path + "-shm")
            setAside("the listening history \(path) was corrupt (\(error)); kept as \(corrupt), starting a new one")
            return try HistoryDatabase(path: path)
        }
    }
}
