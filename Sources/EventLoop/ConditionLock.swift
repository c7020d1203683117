import Glibc

/// A mutex with a condition variable (pthread): what Foundation's NSLock and NSCondition gave the media cache,
/// the downloads and the engine's group switch, without full Foundation (and its ICU data) in the programs. Not recursive, as they were not.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        // Timed waits run on the monotonic clock: a wall-clock step does not stretch or cut them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, the lock held, for a `broadcast` (or a spurious wake-up: callers wait in a loop on their condition).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits, the lock held, for a `broadcast` or until `deadline`: false when the time ran out.
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline).components
        guard left.seconds >= 0 else { return false }
        return wait(seconds: Double(left.seconds) + Double(left.attoseconds) / 1e18)
    }

    /// Waits, the lock held, for a `broadcast` or at most `seconds`: false when the time ran out.
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = deadline.tv_nsec + Int(seconds * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// Wakes every waiter (call with the lock held).
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
