import CShims
import Dispatch
import Glibc

/// Gives memory freed after large work back to the system.
///
/// glibc keeps freed heap pages for reuse. After one AddTracks or state save of 100 000 tracks the
/// daemon held 250 MB of which 170 MB were free (measured with `malloc_trim` from a debugger): the
/// message's strings, the converted queue, the encoded JSON. Those who finished such work call
/// `giveBackSoon()`; half a second later, off the loop, `malloc_trim(0)` returns the free pages. Calls
/// meanwhile share that one trim. Small work does not call it: a trim walks the whole heap.
public enum ProcessMemory {
    private static let state = TrimState()

    public static func giveBackSoon() {
        guard state.claim() else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
            state.release()
            quaver_return_free_heap()
        }
    }
}

/// Whether a trim is already scheduled; claimed from any thread.
private final class TrimState: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var scheduled = false

    init() { pthread_mutex_init(&lock, nil) }

    /// True for the caller that schedules the trim.
    func claim() -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if scheduled { return false }
        scheduled = true
        return true
    }

    func release() {
        pthread_mutex_lock(&lock)
        scheduled = false
        pthread_mutex_unlock(&lock)
    }
}
