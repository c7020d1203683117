import Foundation
import TestSupport
import XCTest

/// quaverd reads its own command line (`DaemonOptions`, without ArgumentParser): the forms ArgumentParser took
/// still work, and a command line it cannot read ends the daemon with status 64 and the reason.
final class DaemonCommandLineTests: XCTestCase {
    func testUsageErrorsExitWith64AndTheirReason() throws {
        let cases = [(["--bogus"], "unknown option '--bogus'"), (["--output"], "missing value for '--output'"),
                     (["--play", "--config"], "missing value for '--config'"), (["-x", "a.flac"], "unknown option '-x'")]
        for (arguments, reason) in cases {
            let result = try ChildProcess.run(RunningDaemon.executable, arguments, timeout: 20)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Usage: quaverd"), result.stderr)
        }
    }

    func testHelpNamesEveryOption() throws {
        let result = try ChildProcess.run(RunningDaemon.executable, ["--play", "-h"], timeout: 20)
        XCTAssertEqual(result.status, 0, result.stderr)
        for option in ["--output", "--config", "--bus-address", "--play", "--version", "--help"] {
            XCTAssertTrue(result.stdout.contains(option), "--help lacks \(option):\n\(result.stdout)")
        }
    }

    /// `--output=sink` as one word, an option after an item, and after `--` an item that looks like an option (not
    /// a file: logged and left out, as any item that names nothing; read as an option, it would stop the daemon).
    func testOptionsAsOneWordAndItemsAfterDoubleDash() throws {
        let flac = try Media.fixtures().flac
        let daemon = try RunningDaemon([flac.path, "--play", "--", "--no-such-option"],
                                       options: ["--output=fakesink sync=true"])
        daemon.waitUntil("the file queued and playing") { daemon.tracks.count == 1 && daemon.status == "Playing" }
        daemon.waitUntil("the other item refused in the log") { daemon.logTail.contains("--no-such-option") }
    }
}
