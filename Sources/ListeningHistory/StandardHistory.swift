import FoundationEssentials
import Logging
import PlayerCore

extension HistoryRecorder {
    /// The history in `$XDG_STATE_HOME/quaver/history.db` (`HistoryDatabase.standardPath`), not yet loaded, and
    /// the file's path; nil when the file cannot be opened (no home folder, a disk error), said in the log:
    /// then nothing is counted and everything else works.
    public static func standard(player: Player, log: Logger) -> (recorder: HistoryRecorder, path: String)? {
        let now = { Int64(Date().timeIntervalSince1970) }
        do {
            let database = try HistoryDatabase.open(path: try HistoryDatabase.standardPath(), now: now()) { log.warning("\($0)") }
            return (HistoryRecorder(player: player, database: database, now: now, log: log), database.path)
        } catch {
            log.error("the listening history will not be kept: \(error)")
            return nil
        }
    }
}
