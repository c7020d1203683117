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
    public func wait(until deadline: MonotonicDeadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }

    /// Waits, the lock held, for a `broadcast` or at most `seconds`: false when the time ran out.
    public func wait(seconds: Double) -> Bool {
        wait(until: .after(seconds: seconds))
    }

    /// Wakes every waiter (call with the lock held).
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A moment on the monotonic clock, which `ConditionLock`'s timed waits run on. Not `ContinuousClock`: reading
/// it runs code of the `_Concurrency` library, whose one 240 KiB block of code then stays resident in the daemon
/// for a function or two (docs/reliability.md, "Memory while playing").
public struct MonotonicDeadline: Sendable {
    fileprivate let time: timespec

    /// `seconds` from now.
    public static func after(seconds: Double) -> MonotonicDeadline {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = now.tv_nsec + Int(max(0, seconds) * 1e9)  // a time already past is now
        return MonotonicDeadline(time: timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000,
                                                tv_nsec: nanoseconds % 1_000_000_000))
    }

    /// `duration` from now.
    public static func after(_ duration: Duration) -> MonotonicDeadline {
        let (seconds, attoseconds) = duration.components
        return after(seconds: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
