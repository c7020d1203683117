import BaseDirectories
import Foundation
import Glibc
import XCTest

/// Quaver's folders are tightened through a descriptor, never through a link, and never when another
/// user owns them.
final class PrivateFolderTests: XCTestCase {
    private var base: URL!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("quaver-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: base)
    }

    private var environment: [String: String] { ["XDG_CACHE_HOME": base.path] }

    func testAWideFolderOfOursIsMadePrivate() throws {
        try makeFolder(base.appendingPathComponent("quaver"), mode: 0o755)
        let tightened = try BaseDirectory.cache.makeQuaverFolderPrivate(environment: environment)
        XCTAssertEqual(tightened?.formerMode, 0o755)
        XCTAssertEqual(mode(of: base.appendingPathComponent("quaver")), 0o700)
    }

    func testALinkIsLeftAloneAndItsTargetUnchanged() throws {
        let target = base.appendingPathComponent("elsewhere")
        try makeFolder(target, mode: 0o755)
        XCTAssertEqual(symlink(target.path, base.appendingPathComponent("quaver").path), 0)
        XCTAssertNil(try BaseDirectory.cache.makeQuaverFolderPrivate(environment: environment))
        XCTAssertEqual(mode(of: target), 0o755)
    }

    func testAFolderOfAnotherUserIsRefusedAndLeftAsItIs() throws {
        try XCTSkipUnless(geteuid() == 0, "only root can give a folder to another user")
        let folder = base.appendingPathComponent("quaver")
        try makeFolder(folder, mode: 0o755)
        XCTAssertEqual(chown(folder.path, 65534, 65534), 0)
        XCTAssertThrowsError(try BaseDirectory.cache.makeQuaverFolderPrivate(environment: environment)) { error in
            XCTAssertEqual("\(error)", "\(folder.path) belongs to user 65534, not to us (\(geteuid())): left as it is")
        }
        XCTAssertEqual(mode(of: folder), 0o755)
    }

    private func makeFolder(_ url: URL, mode: mode_t) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        chmod(url.path, mode)
    }

    private func mode(of url: URL) -> mode_t {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & 0o777 : 0
    }
}
