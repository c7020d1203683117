import DBus
import Foundation

/// A client of its own on a bus, calling `poll` every `interval` on a thread of its own and keeping the longest
/// wait: how long another client of quaverd waits while something heavy runs (tests and the bench).
public final class PollingClient: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var longest = 0.0
    private var polls = 0
    /// When each poll was sent and when its answer came, in order.
    private var answered: [(sent: Date, answer: Date)] = []
    private let finished = DispatchSemaphore(value: 0)

    public init(address: String, every interval: Double = 0.02, _ poll: @escaping @Sendable (Connection) throws -> Void) throws {
        let connection = try Connection(address: address)
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let start = Date()
                try? poll(connection)
                let end = Date()
                lock.withLock {
                    longest = max(longest, end.timeIntervalSince(start))
                    polls += 1
                    answered.append((start, end))
                }
                usleep(UInt32(interval * 1_000_000))
            }
            connection.close()
            finished.signal()
        }
    }

    /// How many polls were both sent and answered within `span`. None, over a span longer than a few polls, is
    /// quaverd answering nothing meanwhile: a poll sent during a call that holds its loop is answered after it.
    public func pollsAnswered(within span: ClosedRange<Date>) -> Int {
        lock.withLock { answered.filter { span.contains($0.sent) && span.contains($0.answer) }.count }
    }

    /// Stops polling; answers the longest wait in seconds and how many polls were made.
    public func stop() -> (longest: Double, polls: Int) {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { (longest, polls) }
    }
}
