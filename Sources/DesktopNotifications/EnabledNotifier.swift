import DBus
import Logging
import PlayerCore

extension TrackNotifier {
    /// `[notifications]`: nil unless `enabled`; a timeout of 0 or less leaves it to the server.
    /// `artURL` gives the cover the notification shows (the one MPRIS advertises).
    public static func ifEnabled(_ enabled: Bool, timeoutSeconds: Double, player: Player, connection: Connection,
                                 log: Logger, artURL: @escaping (Track) -> String?) -> TrackNotifier? {
        guard enabled else { return nil }
        let options = Options(timeoutSeconds: timeoutSeconds > 0 ? timeoutSeconds : nil, artURL: artURL)
        return TrackNotifier(player: player, connection: connection, options: options, log: log)
    }
}
