import Foundation
import TestSupport
import XCTest

/// Short, seeded runs of scripts/soak against the real daemon. The script checks the queue as it goes, that
/// the daemon is the same process afterwards, still plays, skips and seeks, and exits 0 on SIGTERM.
/// `scripts/bench` runs the long versions.
final class SoakTests: XCTestCase {
    /// A storm of valid calls in every mix, then random and malformed calls on every member.
    func testAShortStormAndFuzzRunLeavesTheDaemonAliveAndInControl() throws {
        let output = try soak(mode: "both")
        XCTAssertTrue(output.contains("soak: 2 passed, 0 failed"), output)
    }

    /// Valid calls on media that fails only once it plays (cut short, noise behind a real header, refused and
    /// silent servers, files deleted or overwritten while queued), jumping into gapless switches: where
    /// playbin's own deadlocks and the abort were found (docs/platform.md). No answer may take 5 s.
    func testAShortRunOnFailingMediaNeverHangsNorKillsTheDaemon() throws {
        let output = try soak(mode: "failing")
        XCTAssertTrue(output.contains("soak: 1 passed, 0 failed"), output)
    }

    /// What scripts/soak printed, after checking it exited 0; `QUAVER_SOAK_SEED` picks another seed.
    private func soak(mode: String) throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let script = repository.appendingPathComponent("scripts/soak").standardized.path
        let demo = repository.appendingPathComponent("demo").standardized.path
        let seed = ProcessInfo.processInfo.environment["QUAVER_SOAK_SEED"] ?? "1"
        let result = try ChildProcess.run("/usr/bin/python3", [script, RunningDaemon.executable, "--mode", mode,
                                                                "--calls", "1500", "--seconds", "8", "--seed", seed,
                                                                "--fixtures", demo],
                                          timeout: 120)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        return result.stdout + result.stderr
    }
}
