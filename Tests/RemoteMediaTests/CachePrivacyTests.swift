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

    /// A failure's text quotes the URL with its login masked. This is the download's own masking: quaverd masks
    /// again where the text leaves it (GetQueue, LastError, the log), so its tests pass with this one taken out.
    func testAFailureQuotesTheURLWithItsLoginMasked() throws {
        let server = try TestServer("hostile")
        let run = try DownloadRun("http://alice:s3cret@127.0.0.1:\(server.port)/missing.mp3")
        let failure = run.failure(within: 10)
        XCTAssertEqual(failure?.kind, .notFound, "\(run.events)")
        XCTAssertTrue(failure?.text.contains("127.0.0.1:\(server.port)/missing.mp3") == true, failure?.text ?? "")
        XCTAssertFalse(failure?.text.contains("s3cret") ?? true, failure?.text ?? "")
    }

    func testAnExistingFolderWithWideModesIsTightened() throws {
        let parent = try TemporaryDirectory(prefix: "quaver-cache")
        let folder = parent.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        _ = try MediaCache(directory: folder, capacityBytes: 1 << 20)
        XCTAssertEqual(mode(of: folder.path), 0o700)
    }

    /// Links at the names of an entry's data file, sidecar and the sidecar's temporary file (planted there
    /// before the entry opens) are replaced, never written through; the download completes as usual.
    func testLinksPlantedAtAnEntrysFileNamesAreNeverFollowed() throws {
        let server = try TestServer("hostile")
        let url = server.url("good")
        let run = try DownloadRun(url)
        let victims = try TemporaryDirectory(prefix: "quaver-victims")
        let sidecar = run.cache.sidecarFile(for: url).path
        var planted: [(link: String, target: URL)] = []
        for (index, link) in [run.cache.dataFile(for: url).path, sidecar, sidecar + ".new"].enumerated() {
            let target = victims.url.appendingPathComponent("victim\(index)")
            try Data("not yours\n".utf8).write(to: target)
            XCTAssertEqual(symlink(target.path, link), 0)
            planted.append((link, target))
        }
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        run.download.close()
        for (link, target) in planted {
            XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "not yours\n", "written through \(link)")
            XCTAssertEqual(mode(of: target.path), 0o644 & ~currentUmask(), "\(target.path) had its mode changed")
            var info = stat()
            if lstat(link, &info) == 0 { XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "\(link) is still a link") }
        }
        XCTAssertTrue(run.cachedBytesAreReal(url: url))
        XCTAssertEqual((try? Data(contentsOf: run.cache.dataFile(for: url)))?.count, TestServer.fileLength)
    }

    /// A cache folder that is a symbolic link is refused, and its target is left as it was (not chmod-ed).
    func testACacheFolderThatIsALinkIsRefusedAndItsTargetLeftAlone() throws {
        let parent = try TemporaryDirectory(prefix: "quaver-cache")
        let target = parent.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let folder = parent.url.appendingPathComponent("media")
        XCTAssertEqual(symlink(target.path, folder.path), 0)
        XCTAssertThrowsError(try MediaCache(directory: folder, capacityBytes: 1 << 20)) { error in
            XCTAssertEqual("\(error)", "refusing the media cache \(folder.path): a symbolic link")
        }
        XCTAssertEqual(mode(of: target.path), 0o755)
    }

    /// A cache folder of another user, or one writable by others, is refused: whoever can write there could
    /// plant entries that would be played as the server's bytes. Only root can give a folder away, so the
    /// other user's folder is tried only when the tests run as root (`sudo scripts/deps test`, then
    /// `scripts/test` as oneself, is how the README has it).
    func testACacheFolderOfAnotherUserOrWritableByOthersIsRefused() throws {
        let parent = try TemporaryDirectory(prefix: "quaver-cache")
        let folder = parent.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        chmod(folder.path, 0o777)
        XCTAssertThrowsError(try MediaCache(directory: folder, capacityBytes: 1 << 20)) { error in
            XCTAssertEqual("\(error)", "refusing the media cache \(folder.path): writable by others (mode 777)")
        }
        chmod(folder.path, 0o700)
        guard geteuid() == 0 else { return }
        XCTAssertEqual(chown(folder.path, 65534, 65534), 0)
        XCTAssertThrowsError(try MediaCache(directory: folder, capacityBytes: 1 << 20)) { error in
            XCTAssertEqual("\(error)", "refusing the media cache \(folder.path): owned by user 65534, not by us (\(geteuid()))")
        }
    }

    private func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    private func mode(of path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }
}
