import Logging
import PlayerCore
import StateStore

extension SessionRecorder {
    /// The recorder of the standard state file (`StateFile.standard`); nil without a usable state folder (no
    /// HOME), said in the log: the daemon still plays, and keeps nothing.
    public static func standard(player: Player, log: Logger) -> SessionRecorder? {
        do {
            return SessionRecorder(player: player, file: try StateFile.standard(), log: log)
        } catch {
            log.error("the queue will not be kept across restarts: \(error)")
            return nil
        }
    }
}
