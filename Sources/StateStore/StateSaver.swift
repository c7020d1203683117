import Dispatch
import EventLoop
import FoundationEssentials
import Glibc

/// Saves the state after changes, at most once per `interval`, on the event loop.
///
/// The first `markChanged()` after a write starts a timer; changes until it fires ride along, and the
/// write takes one fresh `snapshot()` then. So a burst of changes (a queue of 20 000 added track by track,
/// volume dragged) costs one write, and a change is on disk at most `interval` seconds later.
/// When only where playing is changed (`markPositionChanged`: the position tick, a seek, the next track,
/// play/pause), the write is a small `PositionMark` for the state written last, not the whole queue again.
///
/// The snapshot is taken on the loop thread (it reads the player's state) and costs nothing for the queue:
/// it carries an immutable copy of it that the serial background queue turns into `SavedTrack`s, encodes
/// and writes, because for 100 000 tracks each of those steps would stall D-Bus replies. Writes stay in
/// order, and `flushNow()` waits for those already queued. All methods run on the loop thread, like the
/// rest of the daemon's state.
public final class StateSaver {
    private let file: StateFile
    private let interval: Double
    private let snapshot: () -> StateSnapshot
    private let onError: (Error) -> Void
    private var pending: LoopSource?
    /// Something besides the current track, position and playing status changed since the last write.
    private var wholeStateChanged = false
    /// The revision of the whole state last handed to the writer: what position marks refer to.
    private var savedRevision: String?
    private let writer = DispatchQueue(label: "quaver.state-saver")
    /// A timed write is on the writer's queue or being written.
    private var writeInFlight = false
    /// Something was marked while a timed write was in flight: another follows once it is done.
    private var changedDuringWrite = false
    /// How long the last timed write took, in seconds.
    private var lastWriteSeconds = 0.0

    /// - Parameters:
    ///   - snapshot: builds the state to write; called once per write, on the loop thread.
    ///   - onError: told about a failed timed write (the daemon logs it; the next change retries).
    public init(file: StateFile, interval: Double = 1, snapshot: @escaping () -> StateSnapshot,
                onError: @escaping (Error) -> Void) {
        self.file = file
        self.interval = interval
        self.snapshot = snapshot
        self.onError = onError
    }

    /// Whether a change waits for its write.
    public var hasPendingChanges: Bool { pending != nil || changedDuringWrite }

    /// Notes that the state changed; a write follows within `interval` seconds.
    public func markChanged() {
        wholeStateChanged = true
        schedule()
    }

    /// Notes that only the current track, the position or the playing status changed.
    public func markPositionChanged() {
        schedule()
    }

    /// Writes now, whether or not something was marked (at exit the position moved without a mark),
    /// after any write already under way, and cancels the pending timed write. Blocks until it is on disk.
    public func flushNow() throws {
        cancelPending()
        changedDuringWrite = false
        let write = nextWrite()
        do {
            try writer.sync { try write() }
        } catch {
            wholeStateChanged = true
            throw error
        }
    }

    /// One timed write at a time: a whole queue of 100 000 tracks takes about a second to build and
    /// write, and with tags read in the background changing it all the time, writes started every second
    /// piled up on the writer's queue, each holding a copy of the queue. The next write waits for the one
    /// in flight, and then at least four times as long as that one took, so the writer works a fifth of
    /// the time at most.
    private func schedule() {
        guard !writeInFlight else {
            changedDuringWrite = true
            return
        }
        guard pending == nil else { return }
        pending = EventLoop.main.schedule(after: max(interval, 4 * lastWriteSeconds)) { [weak self] in self?.timerFired() }
    }

    /// A failed write (here or in `flushNow`) makes the next one write the whole state: a position mark
    /// must not name a revision that never reached the disk.
    private func timerFired() {
        pending = nil
        writeInFlight = true
        let write = nextWrite()
        writer.async {
            let start = DispatchTime.now().uptimeNanoseconds
            var failure: Error?
            do { try write() } catch { failure = error }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            EventLoop.main.post { [weak self] in self?.timedWriteEnded(after: seconds, failure: failure) }
        }
    }

    private func timedWriteEnded(after seconds: Double, failure: Error?) {
        writeInFlight = false
        lastWriteSeconds = seconds
        if let failure {
            wholeStateChanged = true
            onError(failure)
        }
        guard changedDuringWrite else { return }
        changedDuringWrite = false
        schedule()
    }

    /// The write due now, with its snapshot taken here on the loop thread: a position mark when only
    /// where playing is changed since a whole state was written, the whole state (with a new revision) otherwise.
    private func nextWrite() -> () throws -> Void {
        let snapshot = snapshot()
        let file = self.file
        if !wholeStateChanged, let revision = savedRevision {
            let mark = PositionMark(of: snapshot.state, revision: revision)
            return { try file.savePosition(mark) }
        }
        wholeStateChanged = false
        let revision = UUID().uuidString
        savedRevision = revision
        return {
            var state = snapshot.state
            state.revision = revision
            guard let tracks = snapshot.queue else { return try file.save(state) }
            try file.save(state, tracks: tracks)
            ProcessMemory.giveBackSoon()  // the file's text is garbage now
        }
    }

    private func cancelPending() {
        pending?.cancel()
        pending = nil
    }

    deinit { cancelPending() }
}

/// The state as the loop sees it at one moment. Everything but the queue is read at once; the queue, when
/// `queue` is set, is handed over by it track by track on the writer's queue (from an immutable copy the
/// closure holds), straight into the file's text.
public struct StateSnapshot: Sendable {
    public typealias Tracks = @Sendable (_ each: (SavedTrack) -> Void) -> Void

    public var state: SavedState
    public var queue: Tracks?

    public init(_ state: SavedState, queue: Tracks? = nil) {
        self.state = state
        self.queue = queue
    }
}
