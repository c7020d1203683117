import Foundation
import TestSupport
import XCTest

/// A short, seeded run of scripts/soak against the real daemon: a storm of valid calls in every mix, then
/// random and malformed calls on every member. The script checks the queue every 500 calls, that the
/// daemon is the same process afterwards, still plays, skips and seeks, and exits 0 on SIGTERM.
/// `scripts/bench` runs the long version.
final class SoakTests: XCTestCase {
    func testAShortStormAndFuzzRunLeavesTheDaemonAliveAndInControl() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let script = repository.appendingPathComponent("scripts/soak").standardized.path
        let demo = repository.appendingPathComponent("demo").standardized.path
        let seed = ProcessInfo.processInfo.environment["QUAVER_SOAK_SEED"] ?? "1"
        let result = try ChildProcess.run("/usr/bin/python3", [script, RunningDaemon.executable, "--mode", "both",
                                                                "--calls", "1500", "--seconds", "8", "--seed", seed,
                                                                "--fixtures", demo],
                                          timeout: 120)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("soak: 2 passed, 0 failed"), result.stdout + result.stderr)
    }
}
