import Dispatch
import EventLoop

/// The scanner's own thread: jobs run one after another, at a lower priority than the loop (nice 10; Linux
/// gives each thread its own nice value). On a busy machine with two cores, reading tags beside the loop made a
/// client's call on the loop wait for the CPU: up to 79 ms in a first index of 100 000 files (release build).
/// A libdispatch queue would run the jobs on shared pool threads, whose priority is not ours to change.
final class ScanThread {
    private let jobs = Jobs()

    init() {
        let jobs = jobs
        NamedThread.start("quaver-scan", nice: NamedThread.background) { jobs.run() }
    }

    /// The thread ends once the jobs queued before are done.
    deinit { jobs.finish() }

    func async(_ job: @escaping () -> Void) { jobs.add(job) }

    /// Waits until every job queued so far has run. Never call it from a job.
    func sync() {
        let done = DispatchSemaphore(value: 0)
        jobs.add { done.signal() }
        done.wait()
    }
}

/// The jobs waiting, behind one lock; the thread sleeps on the condition while there are none.
private final class Jobs: @unchecked Sendable {
    private let condition = ConditionLock()
    private var waiting: [() -> Void] = []
    private var finished = false

    func run() {
        while let job = next() { job() }
    }

    func add(_ job: @escaping () -> Void) {
        condition.withLock {
            waiting.append(job)
            condition.broadcast()
        }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    private func next() -> (() -> Void)? {
        condition.withLock {
            while waiting.isEmpty && !finished { condition.wait() }
            return waiting.isEmpty ? nil : waiting.removeFirst()
        }
    }
}
