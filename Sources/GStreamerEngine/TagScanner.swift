import GStreamerEngine
import PlayerCore

/// Reads the tags of newly queued local files in the background (TagReader) and hands them to the
/// player, so clients see titles and lengths for the whole queue, not only for tracks already played.
public final class TagScanner: PlayerObserver {
    private let player: Player
    private let reader: TagReader

    public init(player: Player, reader: TagReader) {
        self.player = player
        self.reader = reader
        reader.onRead = { [weak player] id, tags, length in player?.updateTags(id, tags, duration: length) }
        player.addObserver(self)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .tracksAdded(let ids, _):
            guard let first = ids.first, let start = player.index(of: first) else { return }
            scan(start..<start + ids.count)
        case .queueReplaced:
            reader.removeAll()
            scan(0..<player.queueLength)
        default:
            break
        }
    }

    /// Local files the player knows nothing about yet, among the tracks at `range` of the queue (added
    /// tracks are consecutive). Remote ones are left to the engine: reading them would open a connection
    /// per queued stream. Looked at a slice at a time, so 100 000 tracks are never all built at once.
    private func scan(_ range: Range<Int>) {
        for start in stride(from: range.lowerBound, to: range.upperBound, by: 1000) {
            let tracks = player.tracks(in: start..<min(range.upperBound, start + 1000))
            let unknown = tracks.filter { $0.uri.hasPrefix("file:") && $0.tags.title == nil && $0.duration == nil }
            reader.enqueue(unknown.map { EngineItem(id: $0.id, uri: $0.uri) })
        }
    }
}
