// Tags and lengths of queued files, read before they play, so clients show real titles for the whole queue.
//
//   enqueue(items) ──▶ waiting (bounded FIFO, loop thread) ──one at a time──▶ Discoverer (its own thread)
//                                                                               │
//                                     onRead(id, tags, length) ◀── posted to the loop
//
// The discoverer works on a thread of its own (see Discoverer): the loop only keeps the list of files
// and receives each result, so a queue of 100 000 files being read never holds a D-Bus caller.
// It exists only while there is work: started by the first file, ended `idleLifetime` after the last one,
// so a daemon at rest keeps neither its thread nor its GLib context and pipelines (docs/reliability.md,
// "Memory at rest").
// `readNow` is the exception: one file the loop waits for, briefly, before its track is announced
// (PromptReader).
import EventLoop
import GStreamer
import PlayerCore

public final class TagReader {
    /// Called on the loop thread for each file read; files that cannot be read are skipped silently
    /// (the engine reports them if they are ever played).
    public var onRead: ((TrackID, TrackTags, Duration?) -> Void)?
    /// Called on the loop thread when the last waiting file has been read: a feeder can hand over more.
    public var onIdle: (() -> Void)?
    /// Called on the loop thread, once, when the discoverer cannot be started; from then on files are
    /// dropped, not read (their tags arrive when they play).
    public var onUnavailable: ((Error) -> Void)?
    /// Files waiting; more than this are refused by `enqueue`.
    public let capacity: Int
    /// How long `readNow` holds the loop at most.
    public let readNowWait: Duration

    private let timeout: Duration
    private let idleLifetime: Double
    private var discoverer: Discoverer?
    /// Set when the discoverer could not be started: it is not tried again.
    private var unavailable = false
    /// Ends the discoverer once nothing was read for `idleLifetime`.
    private var idleEnd: LoopSource?
    private let promptReader: PromptReader
    private var waiting: [EngineItem] = []
    /// Index of the next item in `waiting`: popping from the front of a 20 000-item array must not shift it.
    private var head = 0
    private var inFlight: EngineItem?

    /// - Parameters:
    ///   - timeout: how long one file may take before it is given up.
    ///   - readNowWait: how long `readNow` may hold its caller. A local file takes 1–2 ms (quaver-bench
    ///     tag-reading); a D-Bus caller should never wait more than 50 ms.
    ///   - idleLifetime: seconds the discoverer is kept after the last file, for the next one to come.
    public init(timeout: Duration = .seconds(5), readNowWait: Duration = .milliseconds(40),
                capacity: Int = 100_000, idleLifetime: Double = 30) {
        self.timeout = timeout
        promptReader = PromptReader(timeout: timeout)
        self.readNowWait = readNowWait
        self.capacity = capacity
        self.idleLifetime = idleLifetime
    }

    /// Reads one file, cover included, waiting at most `readNowWait`: for a track about to be announced as
    /// current, whose tags clients should get in the same signal. Nil when it is not read in time; its
    /// tags then reach `onRead` when they come.
    public func readNow(_ item: EngineItem) -> (tags: TrackTags, duration: Duration?)? {
        promptReader.read(item.uri, within: readNowWait, convert: { Self.tags($0, includingImage: true) },
                          late: { [weak self] read in EventLoop.main.post { self?.onRead?(item.id, read.tags, read.duration) } })
    }

    /// Whether the discoverer (its thread and GLib context) exists now.
    public var isDiscovererRunning: Bool { discoverer != nil }

    /// Files waiting or being read.
    public var pendingCount: Int { waiting.count - head + (inFlight == nil ? 0 : 1) }

    /// Queues files to read; returns how many were accepted (all, unless `capacity` is reached).
    @discardableResult
    public func enqueue(_ items: [EngineItem]) -> Int {
        let accepted = items.prefix(max(0, capacity - pendingCount))
        waiting.append(contentsOf: accepted)
        startNext()
        return accepted.count
    }

    /// Forgets every waiting file (the queue was replaced); the one being read still reports.
    public func removeAll() {
        waiting.removeAll()
        head = 0
    }

    private func startNext() {
        guard inFlight == nil else { return }
        guard head < waiting.count else { return endWhenIdle() }
        idleEnd = nil
        guard let discoverer = runningDiscoverer() else { return }
        let item = waiting[head]
        head += 1
        compactIfDrained()
        inFlight = item
        guard WAVGuard.refusal(fileURI: item.uri) == nil else {
            EventLoop.main.post { [weak self] in self?.discovered(item, nil) }
            return
        }
        // The result is turned into TrackTags on the discoverer thread; the loop only hands it on.
        discoverer.discover(item.uri) { [weak self] media in
            let read = media.map { Self.tags($0, includingImage: false) }
            EventLoop.main.post { self?.discovered(item, read) }
        }
    }

    private func runningDiscoverer() -> Discoverer? {
        if discoverer == nil, !unavailable {
            do {
                discoverer = try Discoverer(timeout: timeout)
            } catch {
                unavailable = true
                onUnavailable?(error)
            }
        }
        if discoverer == nil { removeAll() }
        return discoverer
    }

    private func endWhenIdle() {
        guard discoverer != nil, idleEnd == nil else { return }
        // The fired timer is released by the next file's `startNext`, never inside its own callback.
        idleEnd = EventLoop.main.schedule(after: idleLifetime) { [weak self] in
            self?.discoverer = nil  // Discoverer's deinit stops its thread and waits for it
        }
    }

    private func compactIfDrained() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: false)
            head = 0
        } else if head > 4096, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }

    private func discovered(_ item: EngineItem, _ read: (TrackTags, Duration?)?) {
        inFlight = nil
        if let (tags, length) = read { onRead?(item.id, tags, length) }
        startNext()
        if inFlight == nil { onIdle?() }
    }

    /// The container's tags, then the first audio stream's. Files read in the background leave the cover
    /// out, not even copied: it would be kept for every queued track (the engine reads it when one plays).
    static func tags(_ media: DiscoveredMedia, includingImage: Bool) -> (TrackTags, Duration?) {
        var tags = TrackTags()
        for list in [media.containerTags, media.audioTags].compactMap({ $0 }) {
            tags.merge(list, includingImage: includingImage)
        }
        return (tags, media.duration)
    }
}
