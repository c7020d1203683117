import Logging
import PlayerCore

extension TagScanner {
    /// The scanner of queued tracks' tags, saying once in the log when GstDiscoverer is missing (titles then
    /// arrive only as each track plays).
    public static func logging(player: Player, log: Logger) -> TagScanner {
        let reader = TagReader()
        reader.onUnavailable = { error in log.warning("queued tracks show tags only once played: \(error)") }
        return TagScanner(player: player, reader: reader)
    }
}
