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
            scan(added(ids))
        case .queueReplaced:
            reader.removeAll()
            scan(player.tracks[...])
        default:
            break
        }
    }

    /// The added tracks are consecutive in the queue; searching from the end finds appended ones at once,
    /// so queueing 20 000 tracks one by one does not cost 20 000 searches through the whole queue.
    private func added(_ ids: [TrackID]) -> ArraySlice<Track> {
        let tracks = player.tracks
        guard let first = ids.first, let start = tracks.lastIndex(where: { $0.id == first }) else { return [] }
        return tracks[start..<min(tracks.count, start + ids.count)]
    }

    /// Local files the player knows nothing about yet. Remote ones are left to the engine: reading
    /// them would open a connection per queued stream. So is the track the engine has loaded (playing or
    /// paused): its tags come with the stream, and reading it too would start the discoverer for nothing
    /// when a file is opened on an empty queue.
    private func scan(_ tracks: ArraySlice<Track>) {
        let loaded = player.status == .stopped ? nil : player.currentTrackID
        let unknown = tracks.filter {
            $0.id != loaded && $0.uri.hasPrefix("file:") && $0.tags.title == nil && $0.duration == nil
        }
        reader.enqueue(unknown.map { EngineItem(id: $0.id, uri: $0.uri) })
    }
}
