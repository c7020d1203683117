import FoundationEssentials
import Glibc
import Logging
import PlayerCore

extension HistoryRecorder {
    /// The history in `$XDG_STATE_HOME/quaver/history.db` (`HistoryDatabase.standardPath`), not yet loaded, and
    /// the file's path; nil when the file cannot be opened (no home folder, a disk error), said in the log:
    /// then nothing is counted and everything else works. A file not made yet is made by the first write
    /// (`HistoryConnection`), if its folder can be written now; otherwise it is tried now, and refused as before.
    /// Either way the file is closed whenever the history has nothing to write, and opened again by the next write.
    public static func standard(player: Player, log: Logger) -> (recorder: HistoryRecorder, path: String)? {
        let now = { Int64(Date().timeIntervalSince1970) }
        do {
            let path = try HistoryDatabase.standardPath()
            let open = { try HistoryDatabase.open(path: path, now: now()) { log.warning("\($0)") } }
            let connection = try canBeMadeLater(path)
                ? HistoryConnection(at: path, openedByFirstWrite: open) : HistoryConnection(try open(), reopenedBy: open)
            return (HistoryRecorder(player: player, connection: connection, now: now, log: log), path)
        } catch {
            log.error("the listening history will not be kept: \(error)")
            return nil
        }
    }

    /// Nothing at `path` yet, in a folder (made now, as opening would) that this process may write.
    private static func canBeMadeLater(_ path: String) throws -> Bool {
        guard !HistoryDatabase.isMade(at: path) else { return false }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return access(folder.path, W_OK) == 0
    }
}
