import ControlAPI
import Foundation
import Glibc
import TestSupport
import XCTest

/// `[network] cache-size-mb` holds while a file downloads, in the real daemon: our server on 127.0.0.1
/// announces a 10 GB WAV (1.5 MB of sound a second) and the cache may keep 5 MiB.
final class MediaCacheLimitTests: XCTestCase {
    private let limit = 5 << 20
    /// The sidecar and its temporary file, a block each, and one more for the window kept: its bytes need not start
    /// on a block, and a punched hole frees whole blocks only, so 5 MiB from the middle of a block spans 1 281 of them
    /// (a full run saw exactly limit + 3 blocks once).
    private let slack = 3 * 4096

    func testAFileLargerThanTheCacheKeepsItWithinItsLimitPlayingAndPaused() throws {
        let server = try TestServer("hostile")
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let config = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[network]\ncache-size-mb = 5\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(home: home)
        let media = home.url.appendingPathComponent("cache/quaver/media")
        try daemon.playerctl("open", server.url("huge"))
        daemon.waitUntil("the cache filled to its limit", timeout: 20) { diskUse(of: media) > limit - (1 << 20) }
        // 6 s of sound is 9 MB: more than the cache holds went through it.
        let playing = largestUse(of: media, until: { daemon.positionSeconds > 6 }, timeout: 30)
        XCTAssertGreaterThan(daemon.positionSeconds, 6, daemon.logTail)
        XCTAssertEqual(daemon.status, "Playing")
        XCTAssertLessThanOrEqual(playing, limit + slack, "playing: \(playing) bytes in the cache")

        try daemon.playerctl("pause")
        daemon.waitUntil("Paused") { daemon.status == "Paused" }
        let paused = largestUse(of: media, until: { false }, timeout: 4)
        XCTAssertLessThanOrEqual(paused, limit + slack, "paused: \(paused) bytes in the cache")
        print("media cache with a 10 GB file and cache-size-mb = 5: at most \(playing) bytes playing, \(paused) paused")
        daemon.assertIntact(tracks: ["/org/quaver/Track/1"])
    }

    /// The cache on a 100 MiB file system of its own (a tmpfs: tests run as root) and a cache limit larger
    /// than it: the download stops before less than 64 MiB is left free, and the track fails saying why,
    /// where it used to write until the disk was full (ENOSPC).
    func testADownloadStopsBeforeTheDiskIsFullAndTheTrackFailsSayingWhy() throws {
        let server = try TestServer("hostile")
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let cache = home.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let mounted = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=100m,mode=0700", "tmpfs", cache.path])
        guard mounted.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mounted.stderr)") }
        defer { _ = try? ChildProcess.run("umount", ["-l", cache.path]) }
        try SecretsAndPrivacyTests.writeSettings("[network]\ncache-size-mb = 1024\n", in: home)
        let daemon = try RunningDaemon(home: home)
        let url = server.url("huge")
        try daemon.playerctl("open", url)
        daemon.waitUntil("the failure logged", timeout: 30) { daemon.process.standardError.contains("cannot play \(url): ") }
        let line = daemon.process.standardError.split(separator: "\n").first { $0.contains("cannot play \(url): ") } ?? ""
        XCTAssertTrue(line.contains("is nearly full") && line.contains("downloads keep 64 MiB free"), String(line))
        var disk = statvfs()
        XCTAssertEqual(statvfs(cache.path, &disk), 0)
        let free = Int(disk.f_bavail) * Int(disk.f_frsize)
        XCTAssertGreaterThanOrEqual(free, 64 << 20, "the cache's disk was filled")
        print("100 MiB disk under the cache: \(free) bytes left free when the track failed")
        let lastError = try daemon.get("LastError", ControlAPI.quaverInterface).stringValue ?? ""
        XCTAssertTrue(lastError.contains("is nearly full"), lastError)
        daemon.assertIntact(tracks: ["/org/quaver/Track/1"])
    }

    /// The most the cache held on disk, sampled every 0.1 s until `done` or `timeout` seconds.
    private func largestUse(of folder: URL, until done: () -> Bool, timeout: Double) -> Int {
        var largest = 0
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !done() {
            largest = max(largest, diskUse(of: folder))
            usleep(100_000)
        }
        return max(largest, diskUse(of: folder))
    }

    /// Blocks the files in `folder` take on disk (a sparse file counts only what it holds).
    private func diskUse(of folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            var info = stat()
            return total + (lstat(folder.appendingPathComponent(name).path, &info) == 0 ? Int(info.st_blocks) * 512 : 0)
        }
    }
}
