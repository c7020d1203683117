import ControlAPI
import DBus
import Foundation
import Glibc
import SQLite
import TestSupport
import XCTest

/// The library's faults in the real quaverd: files and folders it may not read, a damaged or read-only index, a
/// music folder whose disk goes away, and the disk filling during a scan. None may stop the daemon, hold the
/// bus, or change the user's queue and playlists.
///
/// The tests run as root, which reads and writes any file; where permissions matter quaverd runs without the
/// capabilities that allow that (`RunningDaemon.withoutOverridingPermissions`). Disks are a bind mount and a
/// tmpfs: tests that cannot mount are skipped, saying why.
final class LibraryFaultTests: XCTestCase {
    private var home: TemporaryDirectory!
    private var music: URL { home.url.appendingPathComponent("Music") }
    private var index: URL { home.url.appendingPathComponent("cache/quaver/library.db") }

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "library-faults")
    }

    override func tearDown() { home = nil }

    private func trackCount(_ daemon: RunningDaemon) -> Int64 {
        (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) ?? -1
    }

    private func statistics(_ daemon: RunningDaemon) -> [String: DBusValue] {
        let reply = try? daemon.call("Statistics", on: ControlAPI.libraryInterface)
        return (reply?.first?.dictionaryValue ?? [:]).mapValues(\.unwrapped)
    }

    /// Waits for the end of the scan at start (Statistics' LastScan is set when a full scan ends).
    private func waitForTheFirstScan(_ daemon: RunningDaemon, timeout: Double = 30) {
        daemon.waitUntil("the first scan", timeout: timeout) { (self.statistics(daemon)["LastScan"]?.int64Value ?? 0) > 0 }
    }

    private func lines(_ daemon: RunningDaemon, containing text: String) -> [Substring] {
        daemon.process.standardError.split(separator: "\n").filter { $0.contains(text) }
    }

    private func uri(_ url: URL) -> String { url.absoluteString }

    func testUnreadableFilesAndFoldersAreLeftOutUntilTheyCanBeRead() throws {
        try TaggedTree.write([TaggedTree.File("open.flac", ["TITLE": "Open"]), TaggedTree.File("secret.flac", ["TITLE": "Secret"]),
                              TaggedTree.File("Locked/inside.mp3", ["TITLE": "Inside"])], under: music)
        let secret = music.appendingPathComponent("secret.flac"), locked = music.appendingPathComponent("Locked")
        XCTAssertEqual(chmod(secret.path, 0), 0)
        XCTAssertEqual(chmod(locked.path, 0), 0)
        let daemon = try RunningDaemon(home: home, launcher: try RunningDaemon.withoutOverridingPermissions())
        waitForTheFirstScan(daemon)
        XCTAssertEqual(trackCount(daemon), 1, daemon.logTail)
        XCTAssertEqual(lines(daemon, containing: "folder(s) cannot be read and are not indexed").count, 1, daemon.logTail)
        XCTAssertEqual(lines(daemon, containing: "1 file(s) cannot be read").count, 1, daemon.logTail)

        XCTAssertEqual(chmod(secret.path, 0o644), 0)
        XCTAssertEqual(chmod(locked.path, 0o755), 0)
        daemon.waitUntil("both indexed once readable") { self.trackCount(daemon) == 3 }
        // The folder is watched from then on.
        try TaggedTree.write([TaggedTree.File("Locked/later.ogg", ["TITLE": "Later"])], under: music)
        daemon.waitUntil("a file added to the folder made readable") { self.trackCount(daemon) == 4 }
        daemon.assertIntact(tracks: [])
    }

    func testADamagedIndexIsRebuiltAndTheSavedQueueComesBackWithoutIt() throws {
        try TaggedTree.write((1...3).map { TaggedTree.File("\($0).flac", ["TITLE": "Song \($0)"]) }, under: music)
        let queued = [uri(try Media.longTone()), uri(music.appendingPathComponent("2.flac"))]
        var daemon: RunningDaemon? = try RunningDaemon(queued, home: home)
        waitForTheFirstScan(try XCTUnwrap(daemon))
        daemon = nil
        try Data(repeating: 0x55, count: 64 * 1024).write(to: index)
        for suffix in ["-wal", "-shm"] { unlink(index.path + suffix) }

        let again = try RunningDaemon(home: home)
        again.waitUntil("the queue restored") { again.tracks.count == 2 }
        try again.playerctl("play")
        again.waitUntil("playing") { again.status == "Playing" }
        again.waitUntil("the index rebuilt", timeout: 20) { self.trackCount(again) == 3 }
        XCTAssertEqual(lines(again, containing: "rebuilding").count, 1, again.logTail)
        XCTAssertEqual(try again.quaver("search", ["song"]).stdout.split(separator: "\n").count, 3)
        XCTAssertEqual(again.status, "Playing")
    }

    func testAReadOnlyIndexIsSearchedAsItIsWithOneLine() throws {
        try TaggedTree.write((1...2).map { TaggedTree.File("\($0).flac", ["TITLE": "Song \($0)"]) }, under: music)
        var daemon: RunningDaemon? = try RunningDaemon(home: home)
        waitForTheFirstScan(try XCTUnwrap(daemon))
        daemon = nil
        XCTAssertEqual(chmod(index.path, 0o444), 0)
        try TaggedTree.write([TaggedTree.File("3.flac", ["TITLE": "Song 3"])], under: music)

        let again = try RunningDaemon([uri(try Media.longTone())], home: home, launcher: try RunningDaemon.withoutOverridingPermissions())
        again.waitUntil("the read-only index said") { !self.lines(again, containing: "cannot be written").isEmpty }
        XCTAssertEqual(try again.quaver("search", ["song"]).stdout.split(separator: "\n").count, 2, again.logTail)
        XCTAssertEqual(trackCount(again), 2)
        XCTAssertEqual(try again.quaver("rescan").status, 0)
        try again.playerctl("play")
        again.waitUntil("playing") { again.status == "Playing" }
        XCTAssertEqual(lines(again, containing: "cannot be written").count, 1, again.logTail)
        XCTAssertEqual(lines(again, containing: "library index").count, 1, "one line about the index: \(again.logTail)")
        again.assertIntact(tracks: ["/org/quaver/Track/1"])
    }

    /// Another program holding the index's write lock (SQLite's readers are never locked out in WAL mode): searches
    /// go on, the scan gives up with one line after its 2 s wait, playback and the bus go on; once the lock is gone a
    /// rescan brings the index up to date.
    func testAnIndexLockedByAnotherProgramStopsOnlyItsUpdates() throws {
        try TaggedTree.write((1...2).map { TaggedTree.File("\($0).flac", ["TITLE": "Song \($0)"]) }, under: music)
        let daemon = try RunningDaemon([uri(try Media.longTone())], home: home)
        waitForTheFirstScan(daemon)
        let holder = try Database(path: index.path)
        try holder.execute("BEGIN EXCLUSIVE")
        try TaggedTree.write([TaggedTree.File("3.flac", ["TITLE": "Song 3"])], under: music)
        XCTAssertEqual(try daemon.quaver("rescan").status, 0)
        daemon.waitUntil("the scan given up") { !self.lines(daemon, containing: "the library scan stopped").isEmpty }
        XCTAssertEqual(try daemon.quaver("search", ["song"]).stdout.split(separator: "\n").count, 2)
        try daemon.playerctl("play")
        daemon.waitUntil("playing") { daemon.status == "Playing" }

        try holder.execute("COMMIT")
        XCTAssertEqual(try daemon.quaver("rescan").status, 0)
        daemon.waitUntil("indexed once free") { self.trackCount(daemon) == 3 }
        XCTAssertEqual(try daemon.quaver("search", ["song"]).stdout.split(separator: "\n").count, 3)
        XCTAssertEqual(lines(daemon, containing: "the library scan stopped").count, 1, daemon.logTail)
        daemon.assertIntact(tracks: ["/org/quaver/Track/1"])
    }

    /// A second music folder on a disk of its own (a bind mount) that goes away while quaverd runs: a rescan and
    /// a restart keep its tracks, marked missing; the queue and a saved playlist keep them too, `quaver play`
    /// leaves them out, and once the disk is back a rescan finds them again.
    func testTracksOfADiskThatGoesAwayStayInTheIndexQueueAndPlaylists() throws {
        let source = home.url.appendingPathComponent("disk-contents"), disk = home.url.appendingPathComponent("disk")
        try TaggedTree.write((1...3).map { TaggedTree.File("Far/\($0).flac", ["TITLE": "Song \($0)", "ARTIST": "Faraway"]) },
                             under: source)
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = { try ChildProcess.run("mount", ["--bind", source.path, disk.path]) }
        let mounted = try mount()
        guard mounted.status == 0 else { throw XCTSkip("cannot bind-mount here: \(mounted.stderr)") }
        defer { _ = try? ChildProcess.run("umount", ["-l", disk.path]) }
        try SecretsAndPrivacyTests.writeSettings("[library]\nfolders = [\"~/Music\", \"\(disk.path)\"]\n", in: home)
        var queue: [String] = [], playlist: [String] = []
        do {
            let first = try RunningDaemon(home: home)
            waitForTheFirstScan(first)
            XCTAssertEqual(try first.quaver("add", ["faraway"]).stdout, "queued 3 tracks\n")
            XCTAssertEqual(try first.quaver("save", ["trip"]).status, 0)
            queue = first.tracks
            playlist = try savedPlaylistEntries()
            XCTAssertEqual(playlist.count, 3)

            XCTAssertEqual(try ChildProcess.run("umount", [disk.path]).status, 0)
            XCTAssertEqual(try first.quaver("rescan").status, 0)
            first.waitUntil("its tracks marked missing") { self.statistics(first)["Missing"]?.int64Value == 3 }
            XCTAssertEqual(trackCount(first), 3)
            first.assertIntact(tracks: queue)
        }

        let again = try RunningDaemon(home: home)
        again.waitUntil("the queue restored") { again.tracks.count == 3 }
        waitForTheFirstScan(again)
        XCTAssertEqual(statistics(again)["Missing"]?.int64Value, 3, again.logTail)
        XCTAssertEqual(try again.quaver("play", ["faraway"]).status, 1, "missing tracks are not played")
        XCTAssertEqual(again.tracks.count, 3)
        XCTAssertEqual(try savedPlaylistEntries(), playlist)

        XCTAssertEqual(try mount().status, 0)
        XCTAssertEqual(try again.quaver("rescan").status, 0)
        again.waitUntil("its tracks back") { self.statistics(again)["Missing"]?.int64Value == 0 }
        XCTAssertEqual(try again.quaver("play", ["faraway"]).stdout, "queued 3 tracks\n")
    }

    /// The lines of the one saved playlist that name tracks.
    private func savedPlaylistEntries() throws -> [String] {
        let folder = home.url.appendingPathComponent(".local/share/quaver/playlists")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".m3u8") }
        XCTAssertEqual(names.count, 1, "\(names)")
        let text = try String(contentsOf: folder.appendingPathComponent(names.first ?? ""), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    /// The cache (and the index in it) on a 4 MiB disk of its own, filled to 256 KiB before 1 500 files arrive: the
    /// scan stops with one line saying so, quaverd plays on, and a rescan once there is room indexes them all.
    func testAFullDiskStopsTheScanWithOneLineAndARescanFinishesIt() throws {
        let cache = home.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let mounted = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", cache.path])
        guard mounted.status == 0 else { throw XCTSkip("cannot mount a tmpfs here: \(mounted.stderr)") }
        defer { _ = try? ChildProcess.run("umount", ["-l", cache.path]) }
        let arriving = home.url.appendingPathComponent("arriving")
        try TaggedTree.write((0..<1500).map { TaggedTree.File("a\($0 / 100)/\($0).flac", ["TITLE": "Song \($0)"]) }, under: arriving)
        let daemon = try RunningDaemon([uri(try Media.longTone())], home: home)
        waitForTheFirstScan(daemon)  // of a Music folder not there yet: it makes the index

        var disk = statvfs()
        XCTAssertEqual(statvfs(cache.path, &disk), 0)
        let filler = cache.appendingPathComponent("filler")
        try Data(count: max(0, Int(disk.f_bavail) * Int(disk.f_frsize) - 256 * 1024)).write(to: filler)
        try FileManager.default.moveItem(at: arriving, to: music)
        XCTAssertEqual(try daemon.quaver("rescan").status, 0)
        daemon.waitUntil("the scan stopped", timeout: 60) { !self.lines(daemon, containing: "the disk is full").isEmpty }
        daemon.waitUntil("the scan ended") { (try? daemon.get("Scanning", ControlAPI.libraryInterface).boolValue) == false }
        let indexed = trackCount(daemon)
        XCTAssertLessThan(indexed, 1500)
        try daemon.playerctl("play")
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        XCTAssertEqual(lines(daemon, containing: "the disk is full").count, 1, daemon.logTail)

        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(try daemon.quaver("rescan").status, 0)
        daemon.waitUntil("everything indexed", timeout: 60) { self.trackCount(daemon) == 1500 }
        print("a full disk stopped the scan at \(indexed) of 1500 tracks; a rescan with room indexed them all")
        daemon.assertIntact(tracks: ["/org/quaver/Track/1"])
        XCTAssertEqual(daemon.status, "Playing")
    }
}
