import Foundation
import TestSupport
import XCTest

/// One version everywhere: `quaver --version`, `quaverd --version` and org.quaver.Quaver1.Version of the
/// running daemon all print the QuaverVersion constant.
final class VersionTests: XCTestCase {
    func testBothProgramsAndTheDaemonReportTheSameVersion() throws {
        let quaver = try ChildProcess.run(productsDirectory.appendingPathComponent("quaver").path, ["--version"], timeout: 20)
        let quaverd = try ChildProcess.run(RunningDaemon.executable, ["--version"], timeout: 20)
        XCTAssertEqual(quaver.status, 0, quaver.stderr)
        XCTAssertEqual(quaverd.status, 0, quaverd.stderr)
        let version = quaver.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(version.range(of: #"^\d+\.\d+\.\d+"#, options: .regularExpression), version)
        XCTAssertEqual(quaverd.stdout, quaver.stdout)
        let daemon = try RunningDaemon()
        XCTAssertEqual(try daemon.get("Version", "org.quaver.Quaver1").stringValue, version)
    }
}
