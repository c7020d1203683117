import EventLoop
import PlayerCore

/// Reads the tags of newly queued local files in the background (TagReader) and hands them to the
/// player, so clients see titles and lengths for the whole queue, not only for tracks already played;
/// and reads a local file at once, cover included, when its track becomes current
/// (`Player.readTagsAtOnce`), so the signal announcing it is complete. A file the engine prerolled already,
/// as the next file's check (`checkedRead`), is not read again.
///
/// A queue of 100 000 tracks is not handed to the reader at once: this keeps only the ids still to look
/// at, and gives the reader `batchSize` files whenever it runs dry. Looking for them stops after
/// `lookSize` tracks per loop turn (a restored queue is tagged already and may have nothing to read), so
/// no turn builds more than that many tracks.
public final class TagScanner: PlayerObserver {
    static let batchSize = 64
    static let lookSize = 2000

    private let player: Player
    private let reader: TagReader
    /// Tracks still to look at.
    private var unseen = TrackIDRuns()
    private var refillPosted = false

    public typealias Read = (tags: TrackTags, duration: Duration?)

    /// - Parameter checkedRead: what the engine read of a file already (`GStreamerEngine.checkedRead`).
    public init(player: Player, reader: TagReader, checkedRead: ((EngineItem) -> Read?)? = nil) {
        self.player = player
        self.reader = reader
        reader.onRead = { [weak player] id, tags, length in player?.updateTags(id, tags, duration: length) }
        reader.onIdle = { [weak self] in self?.refill() }
        player.readTagsAtOnce = { [weak reader] item in
            guard Self.isLocal(item.uri) else { return nil }
            return checkedRead?(item) ?? reader?.readNow(item)
        }
        player.addObserver(self)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .tracksAdded(let ids, _):
            unseen.append(ids)
            postRefill()
        case .queueReplaced:
            reader.removeAll()
            unseen = TrackIDRuns()
            unseen.append(player.trackIDs)
            postRefill()
        default:
            break
        }
    }

    private func postRefill() {
        guard !refillPosted, !unseen.isEmpty else { return }
        refillPosted = true
        EventLoop.main.post { [weak self] in
            self?.refillPosted = false
            self?.refill()
        }
    }

    /// Hands the reader up to `batchSize` local files the player knows nothing about yet, looking at
    /// `lookSize` tracks at most. Remote ones are left to the engine: reading them would open a
    /// connection per queued stream. So is the track the engine has loaded (playing or paused): its tags
    /// come with the stream, and reading it too would start the discoverer for nothing when a file is
    /// opened on an empty queue.
    private func refill() {
        guard reader.pendingCount == 0 else { return }
        let loaded = player.status == .stopped ? nil : player.currentTrackID
        var found: [EngineItem] = []
        var looked = 0
        while looked < Self.lookSize, found.count < Self.batchSize, let id = unseen.popFirst() {
            if let track = player.track(id), track.id != loaded, Self.isLocal(track.uri), track.tags.title == nil,
               track.duration == nil {
                found.append(EngineItem(id: track.id, uri: track.uri))
            }
            looked += 1
        }
        if found.isEmpty { return postRefill() }
        reader.enqueue(found)
    }

    /// Only local files are read before they play. Remote ones are left to the engine: reading them would
    /// open a connection per queued stream, and a slow server would hold the loop in `readNow`.
    private static func isLocal(_ uri: String) -> Bool { uri.hasPrefix("file:") }
}

/// Track ids in the order given, kept as runs of consecutive ids: the ids of one AddTracks are one run, so
/// a library queued in one call waits to be scanned as 16 bytes, not 800 kB of ids.
struct TrackIDRuns {
    /// Runs of raw ids, from `first` on.
    private var runs: [ClosedRange<UInt64>] = []
    private var first = 0

    var isEmpty: Bool { first == runs.count }

    mutating func append(_ ids: [TrackID]) {
        for id in ids.map(\.rawValue) {
            if runs.count > first, let last = runs.last, last.upperBound < .max, last.upperBound + 1 == id {
                runs[runs.count - 1] = last.lowerBound...id
            } else {
                runs.append(id...id)
            }
        }
    }

    mutating func popFirst() -> TrackID? {
        guard first < runs.count else { return nil }
        let run = runs[first]
        if run.lowerBound == run.upperBound { first += 1 } else { runs[first] = run.lowerBound + 1...run.upperBound }
        if first == runs.count {
            runs = []
            first = 0
        } else if first > 4096, first * 2 > runs.count {
            runs.removeFirst(first)
            first = 0
        }
        return TrackID(run.lowerBound)
    }
}
