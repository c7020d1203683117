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

    /// Runs `work` on a new thread named by the first 15 bytes of `name` (Linux keeps no more, and refuses a longer
    /// name outright: `pthread_setname_np` fails with ERANGE and the thread keeps the program's), at nice value `nice`, and
    /// with `idle`, under Linux's `SCHED_IDLE` policy (sched(7)): any other thread of ours that wakes takes the CPU
    /// from it at once, where a nice value only weighs its share. MPD reads its database in such a thread
    /// (`SetThreadIdlePriority`); a thread may always lower itself to it.
    /// g_thread_new, like Foundation's Thread.start, ends the process when no thread can be made (out of
    /// threads or memory).
    @discardableResult
    public static func start(_ name: String, nice: Int32 = 0, idle: Bool = false, _ work: @escaping () -> Void) -> NamedThread {
        let thread = NamedThread()
        let context = Unmanaged.passRetained(Start(work: work, thread: thread, nice: nice, idle: idle)).toOpaque()
        let handle = g_thread_new(String(decoding: name.utf8.prefix(15), as: UTF8.self), { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            if start.nice != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, start.nice) }
            if start.idle {
                var parameters = sched_param(sched_priority: 0)
                sched_setscheduler(0, schedulingIdle, &parameters)  // on failure the nice value stays
            }
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
        let idle: Bool

        init(work: @escaping () -> Void, thread: NamedThread, nice: Int32, idle: Bool) {
            self.work = work
            self.thread = thread
            self.nice = nice
            self.idle = idle
        }
    }
}

/// `SCHED_IDLE` (<linux/sched.h>), which Swift's Glibc does not show (glibc defines it only with _GNU_SOURCE).
private let schedulingIdle: Int32 = 5
