import CShims
import Dispatch
import Synchronization

/// Gives memory freed after large work back to the system.
///
/// glibc keeps freed heap pages for reuse. After one AddTracks or state save of 100 000 tracks the
/// daemon held 250 MB of which 170 MB were free (measured with `malloc_trim` from a debugger): the
/// message's strings, the converted queue, the encoded JSON. Those who finished such work call
/// `giveBackSoon()`; half a second later, off the loop, `malloc_trim(0)` returns the free pages. Calls
/// meanwhile share that one trim. Small work does not call it: a trim walks the whole heap.
public enum ProcessMemory {
    /// Whether a trim is already scheduled; claimed from any thread.
    private static let trimScheduled = Mutex(false)

    public static func giveBackSoon() {
        let claimed = trimScheduled.withLock { scheduled in
            defer { scheduled = true }
            return !scheduled
        }
        guard claimed else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
            trimScheduled.withLock { $0 = false }
            quaver_return_free_heap()
        }
    }

    /// Lets go of `garbage` on another thread, for the last reference to a large value the loop is done with:
    /// freeing the 100 000 entries a `quaver play` of a whole library had queued, with their tags, took 14 ms of
    /// one loop turn (release build, perf).
    public static func release<Garbage: Sendable>(_ garbage: Garbage) {
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(garbage) {} }
    }
}
