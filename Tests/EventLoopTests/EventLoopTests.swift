import XCTest
import Glibc
import Synchronization
@testable import EventLoop

final class EventLoopTests: XCTestCase {
    func testTimerFiresOnceAndRepeatingTimerRepeats() {
        var once = 0, repeated = 0
        let single = EventLoop.main.schedule(after: 0.01) { once += 1 }
        let repeating = EventLoop.main.schedule(after: 0.01, repeating: true) { repeated += 1 }
        XCTAssertTrue(EventLoop.main.run(until: { repeated >= 3 }, timeout: 2))
        EventLoop.main.run(until: { false }, timeout: 0.05)
        XCTAssertEqual(once, 1)
        single.cancel(); repeating.cancel()
    }

    func testCancelledTimerNeverFires() {
        var fired = false
        let timer = EventLoop.main.schedule(after: 0.01) { fired = true }
        timer.cancel()
        EventLoop.main.run(until: { false }, timeout: 0.05)
        XCTAssertFalse(fired)
    }

    func testPostFromAnotherThreadRunsOnLoopThread() {
        let ranOnLoopThread = Atomic(false)
        let loopThread = pthread_self()
        Thread.detachNewThread {
            EventLoop.main.post { ranOnLoopThread.store(pthread_equal(pthread_self(), loopThread) != 0, ordering: .relaxed) }
        }
        XCTAssertTrue(EventLoop.main.run(until: { ranOnLoopThread.load(ordering: .relaxed) }, timeout: 2))
    }

    /// Background work yields to whatever else is ready, even when it was posted first: that is what keeps a
    /// call from waiting for the next slice of a long edit as well as the one under way.
    func testBackgroundWorkRunsAfterReadyWorkAndReadyFileDescriptors() {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var order: [String] = []
        EventLoop.main.postInBackground { order.append("background") }
        EventLoop.main.post { order.append("posted") }
        let watch = EventLoop.main.watch(fd: fds[0], conditions: [.input]) { _ in order.append("readable"); return false }
        _ = write(fds[1], "x", 1)
        XCTAssertTrue(EventLoop.main.run(until: { order.count == 3 }, timeout: 2))
        XCTAssertEqual(order.last, "background", "\(order)")
        watch.cancel()
    }

    func testWatchSeesReadableFileDescriptor() {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var seen: FileConditions = []
        let watch = EventLoop.main.watch(fd: fds[0], conditions: [.input]) { seen = $0; return false }
        _ = write(fds[1], "x", 1)
        XCTAssertTrue(EventLoop.main.run(until: { seen.contains(.input) }, timeout: 2))
        watch.cancel()
    }

    func testSignalHandlerRunsOnLoop() {
        var got = false
        let source = EventLoop.main.onSignal(SIGUSR1) { got = true }
        kill(getpid(), SIGUSR1)
        XCTAssertTrue(EventLoop.main.run(until: { got }, timeout: 2))
        source.cancel()
    }
}
