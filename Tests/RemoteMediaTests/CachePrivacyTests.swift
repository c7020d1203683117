import Foundation
import Glibc
import RemoteMedia
import TestSupport
import XCTest

/// Credentials fetch, and are never written; what the cache holds is the user's alone.
final class CachePrivacyTests: XCTestCase {
    func testCredentialsNeverReachTheCacheAndItsFilesArePrivate() throws {
        let server = try TestServer("hostile")
        let secretURL = "http://alice:s3cret@127.0.0.1:\(server.port)/good"
        let run = try DownloadRun(secretURL)
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        run.download.close()
        let plainURL = server.url("good")
        XCTAssertEqual(run.cache.sidecarFile(for: secretURL), run.cache.sidecarFile(for: plainURL))
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: run.cache.sidecarFile(for: plainURL).path) })

        let folder = run.cache.directory
        XCTAssertEqual(mode(of: folder.path), 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(files.count, 2, "\(files)")
        for name in files {
            let path = folder.appendingPathComponent(name).path
            XCTAssertEqual(mode(of: path), 0o600, name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertNil(bytes.range(of: Data("s3cret".utf8)), "\(name) holds the password")
            XCTAssertNil(bytes.range(of: Data("alice".utf8)), "\(name) holds the user name")
        }
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: run.cache.sidecarFile(for: plainURL))) as? [String: Any]
        XCTAssertEqual(sidecar?["url"] as? String, plainURL)
    }

    func testAnExistingFolderWithWideModesIsTightened() throws {
        let parent = try TemporaryDirectory(prefix: "quaver-cache")
        let folder = parent.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        _ = try MediaCache(directory: folder, capacityBytes: 1 << 20)
        XCTAssertEqual(mode(of: folder.path), 0o700)
    }

    private func mode(of path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }
}
