import BaseDirectories
import XCTest

final class BaseDirectoryTests: XCTestCase {
    func testXDGVariableWins() throws {
        let env = ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]
        XCTAssertEqual(try BaseDirectory.state.quaverFolder(environment: env).path, "/x/state/quaver")
    }

    func testFallsBackToHomeWhenUnsetEmptyOrRelative() throws {
        for value in [nil, "", "relative/dir"] {
            var env = ["HOME": "/home/u"]
            env["XDG_CONFIG_HOME"] = value
            env["XDG_STATE_HOME"] = value
            env["XDG_CACHE_HOME"] = value
            env["XDG_DATA_HOME"] = value
            XCTAssertEqual(try BaseDirectory.config.quaverFolder(environment: env).path, "/home/u/.config/quaver")
            XCTAssertEqual(try BaseDirectory.state.quaverFolder(environment: env).path, "/home/u/.local/state/quaver")
            XCTAssertEqual(try BaseDirectory.cache.quaverFolder(environment: env).path, "/home/u/.cache/quaver")
            XCTAssertEqual(try BaseDirectory.data.quaverFolder(environment: env).path, "/home/u/.local/share/quaver")
        }
    }

    func testNoHomeIsAnError() {
        XCTAssertThrowsError(try BaseDirectory.state.url(environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("XDG_STATE_HOME"), "\(error)")
        }
    }
}
