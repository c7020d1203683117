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

    /// A name longer than the kernel's 15 bytes is cut, not lost: pthread_setname_np refuses one whole, and the folder
    /// watch's thread showed as `quaverd` in `top -H` and in crash reports.
    func testALongNameIsCutToFifteenBytes() {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var name = ""
        NamedThread.start("quaver-folder-watch") {
            name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unreadable"
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(name, "quaver-folder-w\n")
    }

    /// `idle`: the thread runs under SCHED_IDLE (5 in <linux/sched.h>), which any thread may lower itself to; a
    /// thread started without it keeps the policy of the process (SCHED_OTHER, 0).
    func testAnIdleThreadRunsUnderTheIdlePolicy() {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var policies: (idle: Int32, plain: Int32) = (-1, -1)
        NamedThread.start("quaver-test", idle: true) {
            policies.idle = sched_getscheduler(0)
            NamedThread.start("quaver-test-2") {
                policies.plain = sched_getscheduler(0)
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(policies.idle, 5)
        XCTAssertEqual(sched_getscheduler(0), 0, "the caller's own is unchanged")
    }
}
