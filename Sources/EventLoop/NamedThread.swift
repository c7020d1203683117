import CGLib
import Glibc
import Synchronization

/// A thread of its own for long blocking work off the loop (a download, the folder watch, the discoverer's
/// loop), named for `top -H` and crash reports: what Foundation's Thread gave, without full Foundation (and
/// its ICU data) in the programs.
public final class NamedThread: Sendable {
    private let finished = Atomic(false)

    /// True once the thread's work has returned.
    public var isFinished: Bool { finished.load(ordering: .acquiring) }

    private init() {}

    /// The nice value of work that must never keep the loop from the CPU (tags read in the background):
    /// Linux gives each thread its own, and the threads a thread starts inherit it.
    public static let background: Int32 = 10

    /// Runs `work` on a new thread named `name` (Linux keeps its first 15 bytes), at nice value `nice`.
    /// g_thread_new, like Foundation's Thread.start, ends the process when no thread can be made (out of
    /// threads or memory).
    @discardableResult
    public static func start(_ name: String, nice: Int32 = 0, _ work: @escaping () -> Void) -> NamedThread {
        let thread = NamedThread()
        let context = Unmanaged.passRetained(Start(work: work, thread: thread, nice: nice)).toOpaque()
        let handle = g_thread_new(name, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            if start.nice != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, start.nice) }
            start.work()
            start.thread.finished.store(true, ordering: .releasing)
            return nil
        }, context)
        g_thread_unref(handle)  // detached: nobody joins it
        return thread
    }

    private final class Start {
        let work: () -> Void
        let thread: NamedThread
        let nice: Int32

        init(work: @escaping () -> Void, thread: NamedThread, nice: Int32) {
            self.work = work
            self.thread = thread
            self.nice = nice
        }
    }
}
