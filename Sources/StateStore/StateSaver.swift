import Dispatch
import EventLoop

/// Saves the state after changes, at most once per `interval`, on the event loop.
///
/// The first `markChanged()` after a write starts a timer; changes until it fires ride along, and the
/// write takes one fresh `snapshot()` then. So a burst of changes (a queue of 20 000 added track by track,
/// volume dragged) costs one write, and a change is on disk at most `interval` seconds later.
///
/// The snapshot is taken on the loop thread (it reads the player's state); encoding and writing happen
/// on a serial background queue, because JSON-encoding a 20 000-track queue takes about 0.25 s, which
/// would stall D-Bus replies. Writes stay in order, and `flushNow()` waits for those already queued.
/// All methods run on the loop thread, like the rest of the daemon's state.
public final class StateSaver {
    private let file: StateFile
    private let interval: Double
    private let snapshot: () -> SavedState
    private let onError: (Error) -> Void
    private var pending: LoopSource?
    private let writer = DispatchQueue(label: "quaver.state-saver")

    /// - Parameters:
    ///   - snapshot: builds the state to write; called once per write, on the loop thread.
    ///   - onError: told about a failed timed write (the daemon logs it; the next change retries).
    public init(file: StateFile, interval: Double = 1, snapshot: @escaping () -> SavedState,
                onError: @escaping (Error) -> Void) {
        self.file = file
        self.interval = interval
        self.snapshot = snapshot
        self.onError = onError
    }

    /// Whether a change waits for its write.
    public var hasPendingChanges: Bool { pending != nil }

    /// Notes that the state changed; a write follows within `interval` seconds.
    public func markChanged() {
        guard pending == nil else { return }
        pending = EventLoop.main.schedule(after: interval) { [weak self] in self?.timerFired() }
    }

    /// Writes now, whether or not something was marked (at exit the position moved without a mark),
    /// after any write already under way, and cancels the pending timed write. Blocks until it is on disk.
    public func flushNow() throws {
        cancelPending()
        let state = snapshot()
        try writer.sync { try file.save(state) }
    }

    private func timerFired() {
        pending = nil
        let state = snapshot()
        writer.async { [file, onError] in
            do {
                try file.save(state)
            } catch {
                EventLoop.main.post { onError(error) }
            }
        }
    }

    private func cancelPending() {
        pending?.cancel()
        pending = nil
    }

    deinit { cancelPending() }
}
