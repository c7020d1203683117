import Dispatch
import EventLoop

/// One call run on a queue of its own that its caller waits for a bounded time: the pipeline's calls on
/// playbin (`Pipeline.within`), which may deadlock, and the prompt tag read (`PromptReader`), which may be slow.
/// A call that has not returned by then is abandoned: its caller goes on without the answer, and `late` gets it
/// on the queue's thread if it ever comes. Either the caller takes the answer or `late` does, never both, and the
/// call keeps none of it: its owner may keep the call (for `isRunning`) long after, and an answer kept with it
/// was a prompt read's whole result, a 15 MB cover included, resident until the next read.
final class BoundedCall<Answer>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var answer: Answer?
    private var returned = false
    private var abandoned = false

    private init() {}

    /// Runs `work` on `queue`, waiting `limit` at most; `nil` when it had not returned by then.
    /// `running` gets the call at once, for `isRunning`.
    static func run(on queue: DispatchQueue, waitingAtMost limit: Duration, running: (BoundedCall) -> Void = { _ in },
                    _ work: @escaping () -> Answer, late: @escaping (Answer) -> Void) -> Answer? {
        let call = BoundedCall()
        running(call)
        queue.async { call.finish(work(), late: late) }
        return call.take(waitingUntil: .after(limit))
    }

    /// Whether the work has not returned yet.
    var isRunning: Bool { lock.withLock { !returned } }

    private func finish(_ value: Answer, late: (Answer) -> Void) {
        let taken = lock.withLock {
            defer { lock.broadcast() }
            returned = true
            if !abandoned { answer = value }
            return !abandoned
        }
        if !taken { late(value) }
    }

    private func take(waitingUntil deadline: MonotonicDeadline) -> Answer? {
        lock.withLock {
            while !returned, lock.wait(until: deadline) {}
            guard returned else {
                abandoned = true
                return nil
            }
            defer { answer = nil }
            return answer
        }
    }
}
