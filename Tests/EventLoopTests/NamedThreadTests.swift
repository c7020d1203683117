import Dispatch
import EventLoop
import Glibc
import XCTest

/// `NamedThread`'s nice value: Linux keeps one per thread, and the threads a thread starts inherit it.
final class NamedThreadTests: XCTestCase {
    /// The nice value seen inside a thread started with `nice`, and inside a thread that one starts.
    private func niceValues(_ nice: Int32) -> (own: Int32, child: Int32) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seen: (own: Int32, child: Int32) = (-99, -99)
        NamedThread.start("quaver-test", nice: nice) {
            seen.own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            NamedThread.start("quaver-test-2") {
                seen.child = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        return seen
    }

    func testBackgroundThreadsAndTheThreadsTheyStartRunAtNiceTen() {
        let ours = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        XCTAssertEqual(NamedThread.background, 10)
        // Only root may lower a nice value: a test run already nicer than 10 stays as it is otherwise.
        let expected: Int32 = ours <= 10 || getuid() == 0 ? 10 : ours
        let background = niceValues(NamedThread.background)
        XCTAssertEqual(background.own, expected)
        XCTAssertEqual(background.child, expected, "inherited")
        let plain = niceValues(0)
        XCTAssertEqual(plain.own, ours, "nice 0 leaves the thread as the process is")
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), ours, "the caller's own is unchanged")
    }
}
