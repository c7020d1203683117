import EventLoop
import Foundation
import PlayerCore

/// The sleep timer's clock in the daemon: the wall clock (a deadline saved in the state file means the same
/// moment after a restart) and one-shot timers on the loop.
public final class WallClock: SleepClock {
    public init() {}

    public var now: Duration { .microseconds(Int64(Date().timeIntervalSince1970 * 1_000_000)) }

    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> AnyObject {
        EventLoop.main.schedule(after: max(0, Double(delay / .microseconds(1)) / 1_000_000)) { action() }
    }
}
