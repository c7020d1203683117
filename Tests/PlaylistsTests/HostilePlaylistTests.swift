import Foundation
import Glibc
import Playlists
import XCTest

/// Playlists that would hang or exhaust a reader: each is refused with a clear reason, quickly.
final class HostilePlaylistTests: XCTestCase {
    func testAPlaylistThatIncludesItselfIsReadOnce() throws {
        let music = try MusicFolder()
        try music.touch("song.flac")
        let playlist = try music.write("a.m3u", text: "song.flac\na.m3u\n./a.m3u\n")
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.uris, [music.uri("song.flac")])
        XCTAssertEqual(list.skipped.map(\.line), [2, 3])
        XCTAssertEqual(list.skipped.first?.description, "\(playlist):2: \"a.m3u\": a playlist that includes itself (left out there)")
    }

    func testPlaylistsThatIncludeEachOtherEndWhereTheLoopCloses() throws {
        let music = try MusicFolder()
        try music.touch("one.flac", "two.flac")
        try music.write("b.m3u", text: "two.flac\na.m3u\n")
        let a = try music.write("a.m3u", text: "one.flac\nb.m3u\n")
        let list = MediaSources.expand([a], workingDirectory: "/")
        XCTAssertEqual(list.uris, [music.uri("one.flac"), music.uri("two.flac")])
        XCTAssertEqual(list.skipped.count, 1)
        XCTAssertEqual(list.skipped.first?.playlist, music.path + "/b.m3u")
    }

    /// Eight playlists, each listing the next one a thousand times: 10^24 entries if followed through.
    func testAnExpansionStopsAtItsEntryLimitWhateverTheNesting() throws {
        let music = try MusicFolder()
        try music.touch("song.flac")
        try music.write("p7.m3u", text: String(repeating: "song.flac\n", count: 1000))
        for level in 0..<7 {
            try music.write("p\(level).m3u", text: String(repeating: "p\(level + 1).m3u\n", count: 1000))
        }
        let started = Date()
        let list = MediaSources.expand([music.path + "/p0.m3u"], workingDirectory: "/")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(list.entries.count, 100_000, "\(list.skipped.prefix(3))")
        XCTAssertEqual(list.skipped.map(\.reason), [.refused("more than 100000 entries in all: the rest is left out")])
    }

    func testAPlaylistLargerThanTheLimitIsRefusedUnread() throws {
        let music = try MusicFolder()
        let path = try music.write("big.m3u", text: "")
        XCTAssertEqual(truncate(path, 16 << 20 + 1), 0)
        XCTAssertThrowsError(try PlaylistFile.read(path: path)) { error in
            XCTAssertEqual("\(error)", "cannot read playlist \(path): larger than 16 MiB")
        }
    }

    func testDevicesPipesAndSocketsAreRefusedWithoutWaiting() throws {
        let music = try MusicFolder()
        let fifo = music.path + "/pipe.m3u"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(mkfifo(music.path + "/pipe.flac", 0o600), 0)
        let socketPath = music.path + "/socket.m3u"
        let socketFD = try bindUnixSocket(socketPath)
        defer { close(socketFD) }
        try FileManager.default.createSymbolicLink(atPath: music.path + "/zero.m3u", withDestinationPath: "/dev/zero")

        XCTAssertThrowsError(try PlaylistFile.read(path: fifo)) { error in
            XCTAssertEqual("\(error)", "cannot read playlist \(fifo): not a regular file (a named pipe)")
        }
        XCTAssertThrowsError(try PlaylistFile.read(path: socketPath)) { error in
            XCTAssertEqual("\(error)", "cannot read playlist \(socketPath): not a regular file (a socket)")
        }
        XCTAssertThrowsError(try PlaylistFile.read(path: "/dev/zero")) { error in
            XCTAssertEqual("\(error)", "cannot read playlist /dev/zero: not a regular file (a device)")
        }
        let list = MediaSources.expand(["pipe.m3u", "socket.m3u", "zero.m3u"], workingDirectory: music.path)
        XCTAssertEqual(list.entries, [])
        XCTAssertEqual(list.skipped.map(\.reason), [.refused("not a regular file (a named pipe)"),
                                                   .refused("not a regular file (a socket)"),
                                                   .refused("not a regular file (a device)")])
        XCTAssertEqual(list.skipped[0].description, "\"pipe.m3u\": not a regular file (a named pipe)")
        // Media files are only named, never opened here: the daemon refuses what is not a regular file.
        XCTAssertEqual(MediaSources.expand(["pipe.flac"], workingDirectory: music.path).uris, [music.uri("pipe.flac")])
        let nested = try music.write("list.m3u", text: "pipe.m3u\nzero.m3u\nsocket.m3u\n")
        XCTAssertEqual(try PlaylistFile.read(path: nested).skipped.map(\.line), [1, 2, 3])
    }

    private func bindUnixSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8).prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EINVAL) }
        return fd
    }
}
