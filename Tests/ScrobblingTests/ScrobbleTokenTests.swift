@testable import Scrobbling
import XCTest

/// The token command runs through posix_spawn (Foundation's Process went with full Foundation).
final class ScrobbleTokenTests: XCTestCase {
    private func failure(_ token: ScrobbleToken) -> String {
        do {
            return "read: \(try token.read())"
        } catch {
            return "\(error)"
        }
    }

    func testACommandsFirstLineIsTheTokenWithoutSurroundingSpace() throws {
        XCTAssertEqual(try ScrobbleToken.command("printf '  abc-123 \\n'").read(), "abc-123")
    }

    func testAFailingCommandGivesItsExitStatus() {
        XCTAssertEqual(failure(.command("echo token; exit 3")), "the token command failed (exit status 3)")
    }

    func testTheCommandReadsNothingAndItsOutputIsBounded() {
        XCTAssertEqual(failure(.command("cat")), "the ListenBrainz token is empty or not one line", "stdin is /dev/null")
        // 1 MB of output: more than a pipe holds, so the command ends only if its output is drained.
        XCTAssertEqual(failure(.command("head -c 1000000 /dev/zero | tr '\\0' 'a'")),
                       "the ListenBrainz token is empty or not one line")
    }
}
