import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// What users do to a daemon without meaning to: kill it hard again and again, fill the disk, leave a
/// folder read-only. The session must come back every time and playback must go on meanwhile.
final class FaultDrillTests: XCTestCase {
    private var fixtures: Fixtures!

    override func setUpWithError() throws {
        fixtures = try Media.fixtures()
    }

    /// `kill -9` while playing, again and again (QUAVER_KILL_ROUNDS, default 10; the benchmark runs 100):
    /// each restart has the queue, the current track and the position within 2 s, and the state file
    /// always parses.
    func testKillNineWhilePlayingAgainAndAgainLosesNothing() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["QUAVER_KILL_ROUNDS"] ?? "") ?? 10
        let files = [fixtures.flac.path, try Media.longTone().path, fixtures.mp3.path]
        var daemon = try RunningDaemon(files)
        let queue = daemon.tracks.count
        try daemon.call("Next")
        try daemon.call("Play")
        for round in 1...rounds {
            // Position marks are written every second while playing: kill after at least one.
            let start = daemon.positionSeconds
            daemon.waitUntil("playing, round \(round)") { daemon.status == "Playing" && daemon.positionSeconds > start + 1.2 }
            let current = daemon.metadata["xesam:url"]?.stringValue
            let position = daemon.positionSeconds
            daemon.process.send(SIGKILL)
            XCTAssertNotNil(daemon.process.waitForExit(timeout: 10))
            let state = daemon.home.url.appendingPathComponent("state/quaver/state.json")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: state)), "round \(round)")

            daemon = try RunningDaemon(bus: daemon.bus, home: daemon.home)
            XCTAssertEqual(daemon.tracks.count, queue, "round \(round)")
            XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue, current, "round \(round)")
            daemon.waitUntil("a restored position") { daemon.positionSeconds > 0 || position < 2 }
            XCTAssertEqual(daemon.positionSeconds, position, accuracy: 2, "round \(round)")
            try daemon.call("Play")
        }
    }

    /// The state and cache folders on a full file system: saving fails with a log line and leaves the
    /// last good state file whole; playback goes on; once there is room again, saving works again.
    func testAFullDiskKeepsPlayingAndNeverTruncatesTheState() throws {
        let disk = try SmallFileSystem(kilobytes: 512)
        let daemon = try RunningDaemon([fixtures.flac.path, try Media.longTone().path], environment: try disk.environment())
        let state = disk.stateFile
        daemon.waitUntil("state saved") { FileManager.default.fileExists(atPath: state.path) }
        let saved = try Data(contentsOf: state)
        try disk.fill()
        try daemon.call("Play")
        try daemon.set("Volume", .double(0.3))
        daemon.waitUntil("the failed save logged") { daemon.process.standardError.contains("cannot save the player state") }
        XCTAssertEqual(try Data(contentsOf: state), saved, "the last good state, whole")
        let position = daemon.positionSeconds
        daemon.waitUntil("still playing") { daemon.status == "Playing" && daemon.positionSeconds > position + 1 }

        disk.makeRoom()
        try daemon.set("Volume", .double(0.6))
        daemon.waitUntil("saved again") { ((try? Data(contentsOf: state)) ?? saved) != saved }
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: state)))
    }

    /// A state folder that turns read-only: the same as a full disk, and nothing is lost.
    func testAReadOnlyStateFolderKeepsPlaying() throws {
        let disk = try SmallFileSystem(kilobytes: 4096)
        // The listening history and the library's index keep their databases open for writing, and Linux
        // refuses to remount a file system read-only while a file on it is open for writing (EBUSY). The
        // index (a cache) goes elsewhere; a link where the history's file would be keeps it off this disk:
        // SQLite refuses to open through a link, and the history is off.
        try disk.keepTheListeningHistoryOff()
        let daemon = try RunningDaemon([fixtures.flac.path, try Media.longTone().path],
                                       environment: try disk.environment(cacheHere: false))
        let state = disk.stateFile
        daemon.waitUntil("state saved") { FileManager.default.fileExists(atPath: state.path) }
        try disk.remount(readOnly: true)
        try daemon.call("Play")
        try daemon.set("Volume", .double(0.3))
        daemon.waitUntil("the failed save logged") { daemon.process.standardError.contains("cannot save the player state") }
        daemon.waitUntil("still playing") { daemon.status == "Playing" && daemon.positionSeconds > 1 }
        try disk.remount(readOnly: false)
        try daemon.call("Quit", on: ControlAPI.rootInterface)
        XCTAssertEqual(daemon.process.waitForExit(timeout: 10), 0)
        let restarted = try RunningDaemon(bus: daemon.bus, home: daemon.home, environment: try disk.environment())
        XCTAssertEqual(try restarted.get("Volume").doubleValue ?? 0, 0.3, accuracy: 0.001, "saved at exit")
    }
}

/// A tmpfs of a given size mounted on a temporary folder (root only: the test is skipped otherwise), to
/// hold the daemon's state and cache folders; unmounted when released.
private final class SmallFileSystem {
    let directory: TemporaryDirectory
    private var filler: URL { directory.url.appendingPathComponent("filler") }

    init(kilobytes: Int) throws {
        directory = try TemporaryDirectory(prefix: "quaverd-small-disk")
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (\(String(cString: strerror(errno)))): needs root")
        }
    }

    /// Writes until the file system is full.
    func fill() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
    }

    var stateFile: URL { directory.url.appendingPathComponent("state/quaver/state.json") }

    func keepTheListeningHistoryOff() throws {
        let folder = stateFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("history.db").path,
                                                   withDestinationPath: "/dev/null")
    }

    /// XDG_STATE_HOME and (unless `cacheHere` is false) XDG_CACHE_HOME on this disk. And a runtime folder off it: ORC (GStreamer's
    /// SIMD code generator) maps the code it generates from a file in XDG_RUNTIME_DIR, else in HOME, and
    /// on a full disk the first write to that mapping is a SIGBUS. A session always has a runtime folder
    /// (systemd makes one per user), so the drills give the daemon one, as the session would.
    func environment(cacheHere: Bool = true) throws -> [String: String] {
        runtime = try runtime ?? TemporaryDirectory(prefix: "quaverd-runtime")
        return ["XDG_STATE_HOME": directory.path + "/state",
                "XDG_CACHE_HOME": (cacheHere ? directory.path : runtime!.path) + "/cache",
                "XDG_RUNTIME_DIR": runtime!.path]
    }
    private var runtime: TemporaryDirectory?

    func makeRoom() { try? FileManager.default.removeItem(at: filler) }

    func remount(readOnly: Bool) throws {
        let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
        guard mount("tmpfs", directory.path, "tmpfs", flags, nil) == 0 else {
            throw TestHarnessError("remount failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { umount2(directory.path, Int32(MNT_DETACH)) }
}
