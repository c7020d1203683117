import Foundation
import Glibc
import TestSupport
import XCTest

/// A media cache folder that is not the user's own is refused by the real daemon with one log line, and
/// remote files then play without being kept (playbin's own source fetches them).
final class MediaCacheFolderTests: SongServerTestCase {
    /// `~/.cache/quaver/media` as a link to a folder of others: its target keeps its mode and gets nothing.
    func testACacheFolderThatIsALinkIsRefusedAndTracksPlayWithoutBeingKept() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let elsewhere = home.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let media = home.url.appendingPathComponent("cache/quaver/media")
        try FileManager.default.createDirectory(at: media.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertEqual(symlink(elsewhere.path, media.path), 0)
        let daemon = try RunningDaemon(home: home)
        try daemon.playerctl("open", server.url("song.mp3"))
        daemon.waitUntil("playing from the server") { daemon.status == "Playing" && daemon.positionSeconds > 0.5 }
        assertRefusedOnce(media, "a symbolic link", in: daemon)
        var info = stat()
        XCTAssertEqual(stat(elsewhere.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o755, "the link's target was chmod-ed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    /// A cache folder another user owns and anyone may write: its entries (here one the daemon kept
    /// earlier, now under that user's control) are never played; the file comes from the server again.
    func testACacheFolderOfAnotherUserWritableByAllIsNeverUsed() throws {
        try XCTSkipUnless(geteuid() == 0, "only root can give a folder to another user")
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let media = home.url.appendingPathComponent("cache/quaver/media")
        let url = server.url("song.mp3")
        do {
            let first = try RunningDaemon(home: home)
            try first.playerctl("open", url)
            first.waitUntil("the file kept") { (try? FileManager.default.contentsOfDirectory(atPath: media.path))?.count == 2 }
            first.waitUntil("the whole file fetched") { self.server.accessLog.count == 1 }
        }
        XCTAssertEqual(chown(media.path, 65534, 65534), 0)
        XCTAssertEqual(chmod(media.path, 0o777), 0)
        let daemon = try RunningDaemon(home: home)
        try daemon.playerctl("open", url)
        daemon.waitUntil("playing from the server") { daemon.status == "Playing" && daemon.positionSeconds > 0.5 }
        assertRefusedOnce(media, "owned by user 65534, not by us (\(geteuid()))", in: daemon)
        XCTAssertTrue(eventually { self.server.accessLog.count >= 2 }, "\(server.accessLog)")
        XCTAssertEqual(server.accessLog.dropFirst().first?.status, 200, "\(server.accessLog)")
        var info = stat()
        XCTAssertEqual(stat(media.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o777, "a folder of another user was changed")
    }

    private func assertRefusedOnce(_ media: URL, _ reason: String, in daemon: RunningDaemon,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let lines = daemon.process.standardError.split(separator: "\n").filter { $0.contains("media cache") }
        XCTAssertEqual(lines.count, 1, "\(lines)", file: file, line: line)
        XCTAssertTrue(lines.first?.hasSuffix("network tracks will not be cached: refusing the media cache \(media.path): \(reason)") == true,
                      "\(lines)", file: file, line: line)
    }
}
