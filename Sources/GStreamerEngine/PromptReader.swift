import Dispatch
import GStreamer
import PlayerCore
import Synchronization

/// Reads one file for a caller that will wait a little for it, but not long: the track becoming current,
/// whose tags should go out in the same signal as the change of track. The read runs on a thread of its
/// own (`PrerollProbe`); the loop waits at most `within` for it. A local file takes 1–5 ms;
/// one that takes longer (a 50 MB cover, a slow disk, a hung network mount) is not waited for: its result
/// comes later through `late`, as the background reader's results do.
///
/// One read at a time: while a read is still running, the next caller gets nil at once, so a file that
/// never finishes costs one thread and holds nobody.
final class PromptReader: Sendable {
    typealias Result = (tags: TrackTags, duration: Duration?)

    private let queue = DispatchQueue(label: "quaver.prompt-read")
    private let reading = Mutex(false)
    private let timeout: Duration

    /// - Parameter timeout: how long one file may take to preroll before it is given up.
    init(timeout: Duration) { self.timeout = timeout }

    /// What `uri` holds, if it is read within `wait`; else nil, and `late` gets the result (on the reading
    /// thread) if one comes.
    func read(_ uri: String, within wait: Duration, convert: @escaping @Sendable (DiscoveredMedia) -> Result,
              late: @escaping @Sendable (Result) -> Void) -> Result? {
        let started = reading.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard started else { return nil }
        let handoff = Handoff()
        queue.async { [self] in
            let result = WAVGuard.refusal(fileURI: uri) == nil ? PrerollProbe.read(uri, timeout: timeout).map(convert) : nil
            reading.withLock { $0 = false }
            if !handoff.finish(result), let result { late(result) }
        }
        return handoff.take(waitingAtMost: wait)
    }
}

/// The result of one read, passed from the reading thread to the waiting one, or dropped by the waiting one
/// when it stops waiting (and then the reading thread delivers it late).
private final class Handoff: Sendable {
    private enum State {
        case reading
        case finished(PromptReader.Result?)
        case abandoned
    }

    private let state = Mutex(State.reading)
    private let done = DispatchSemaphore(value: 0)

    /// The reading thread's side: false when nobody waits any more.
    func finish(_ result: PromptReader.Result?) -> Bool {
        let taken = state.withLock { state in
            guard case .reading = state else { return false }
            state = .finished(result)
            return true
        }
        if taken { done.signal() }
        return taken
    }

    /// The waiting thread's side.
    func take(waitingAtMost wait: Duration) -> PromptReader.Result? {
        _ = done.wait(timeout: .now() + .nanoseconds(Int(wait.nanoseconds)))
        return state.withLock { state in
            if case .finished(let result) = state { return result }
            state = .abandoned
            return nil
        }
    }
}
