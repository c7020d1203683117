import Logging
import PlayerCore

extension TagScanner {
    /// The scanner of queued tracks' tags, saying once in the log when GstDiscoverer is missing (titles then
    /// arrive only as each track plays); a track becoming current that `engine` prerolled already is not read again,
    /// one not read yet is waited for `tagsWait` at most (`TagReader.readNowWait`).
    public static func logging(player: Player, engine: GStreamerEngine? = nil, tagsWait: Duration,
                               log: Logger) -> TagScanner {
        let reader = TagReader(readNowWait: tagsWait)
        reader.onUnavailable = { error in log.warning("queued tracks show tags only once played: \(error)") }
        return TagScanner(player: player, reader: reader, checkedRead: { [weak engine] in engine?.checkedRead(of: $0) })
    }
}
