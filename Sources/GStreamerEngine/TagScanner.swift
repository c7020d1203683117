import EventLoop
import PlayerCore

/// Reads the tags of newly queued local files in the background (TagReader) and hands them to the
/// player, so clients see titles and lengths for the whole queue, not only for tracks already played.
///
/// Which tracks need reading is looked at `sliceSize` ids per loop turn: a restored or replaced queue of
/// 100 000 tracks looked at in one go held the loop for 0.1 s.
public final class TagScanner: PlayerObserver {
    static let sliceSize = 2000

    private let player: Player
    private let reader: TagReader
    /// Tracks still to look at, from `head` on.
    private var unseen: [TrackID] = []
    private var head = 0
    private var stepPosted = false

    public init(player: Player, reader: TagReader) {
        self.player = player
        self.reader = reader
        reader.onRead = { [weak player] id, tags, length in player?.updateTags(id, tags, duration: length) }
        player.addObserver(self)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .tracksAdded(let ids, _):
            unseen += ids
            postStep()
        case .queueReplaced:
            reader.removeAll()
            unseen = player.trackIDs
            head = 0
            postStep()
        default:
            break
        }
    }

    private func postStep() {
        guard !stepPosted, head < unseen.count else { return }
        stepPosted = true
        EventLoop.main.post { [weak self] in self?.step() }
    }

    private func step() {
        stepPosted = false
        let end = min(unseen.count, head + Self.sliceSize)
        let tracks = unseen[head..<end].compactMap(player.track)
        head = end
        if head == unseen.count {
            unseen = []
            head = 0
        }
        scan(tracks)
        postStep()
    }

    /// Local files the player knows nothing about yet. Remote ones are left to the engine: reading
    /// them would open a connection per queued stream.
    private func scan(_ tracks: [Track]) {
        let unknown = tracks.filter { $0.uri.hasPrefix("file:") && $0.tags.title == nil && $0.duration == nil }
        reader.enqueue(unknown.map { EngineItem(id: $0.id, uri: $0.uri) })
    }
}
