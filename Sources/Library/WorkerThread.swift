import Dispatch
import EventLoop

/// A thread of the library's own (the scanner's, the catalog reader's): jobs run one after another, at a nice value
/// and, for the scanner, under Linux's `SCHED_IDLE` policy (`NamedThread.start(idle:)`). On a busy machine with two cores, reading tags beside the loop
/// at the loop's priority made a client's call on the loop wait for the CPU: up to 79 ms in a first index of
/// 100 000 files (release build). At nice 10 it still did: the loop thread waited in the run queue 122 to 499 ms
/// of one poll while running under 1 ms (`quaver-bench library-scale`, load 9 to 13): the scheduler shares the
/// CPU between sessions (autogroups) or cgroups first, the scanner spends quaverd's share, and a nice value only
/// weighs the rest, where an idle thread gives the CPU up to the loop as soon as it wakes. The nice value
/// stays where the policy cannot be set. The catalog reader is not idle: it answers what a user just asked
/// (a search, `quaver play WORDS`), which must not wait behind every other program's work on a busy machine. A libdispatch queue would run the jobs on shared pool threads, whose
/// priority is not ours to change.
final class WorkerThread {
    private let jobs: Jobs

    init(name: String, niceness: Int32, idle: Bool) {
        let jobs = Jobs()
        self.jobs = jobs
        NamedThread.start(name, nice: niceness, idle: idle) { jobs.run() }
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
