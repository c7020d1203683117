import DBus
import Foundation
import TestSupport
import XCTest

/// Every playerctl command against the real daemon, each with its effect checked through D-Bus.
final class PlayerctlTests: XCTestCase {
    private var daemon: RunningDaemon!
    private var fixtures: Fixtures!

    override func setUpWithError() throws {
        fixtures = try Media.fixtures()
        daemon = try RunningDaemon([try Media.longTone().path, fixtures.flac.path, fixtures.mp3.path])
    }

    override func tearDown() { daemon = nil }

    func testMetadataAnswersAtOnceWithTheFirstTrackStopped() throws {
        XCTAssertEqual(try daemon.playerctl("status"), "Stopped")
        XCTAssertEqual(try daemon.playerctl("metadata", "mpris:trackid"), "'/org/quaver/Track/1'", "playerctl quotes paths")
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:title"), "long tone", "untagged: the file name")
        XCTAssertEqual(daemon.tracks, ["/org/quaver/Track/1", "/org/quaver/Track/2", "/org/quaver/Track/3"])
    }

    func testPlayPausePlayPauseStop() throws {
        try daemon.playerctl("play")
        daemon.waitUntil("Playing") { daemon.status == "Playing" }
        daemon.waitUntil("position advancing") { daemon.positionSeconds > 0.3 }
        try daemon.playerctl("pause")
        XCTAssertEqual(try daemon.playerctl("status"), "Paused")
        let paused = daemon.positionSeconds
        usleep(400_000)  // the point: the position must not move meanwhile
        XCTAssertEqual(daemon.positionSeconds, paused, accuracy: 0.05, "position holds while paused")
        try daemon.playerctl("play-pause")
        XCTAssertEqual(try daemon.playerctl("status"), "Playing")
        XCTAssertGreaterThanOrEqual(daemon.positionSeconds, paused - 0.05, "Play after Pause resumes")
        try daemon.playerctl("play-pause")
        XCTAssertEqual(try daemon.playerctl("status"), "Paused")
        try daemon.playerctl("stop")
        XCTAssertEqual(try daemon.playerctl("status"), "Stopped")
        XCTAssertEqual(daemon.positionSeconds, 0)
        try daemon.playerctl("play-pause")
        XCTAssertEqual(try daemon.playerctl("status"), "Playing", "PlayPause when stopped plays")
    }

    func testNextAndPreviousKeepTheStatus() throws {
        try daemon.playerctl("next")
        XCTAssertEqual(daemon.currentTrack, "/org/quaver/Track/2")
        XCTAssertEqual(daemon.status, "Stopped")
        try daemon.playerctl("play")
        try daemon.playerctl("next")
        XCTAssertEqual(daemon.currentTrack, "/org/quaver/Track/3")
        XCTAssertEqual(daemon.status, "Playing")
        try daemon.playerctl("previous")
        XCTAssertEqual(daemon.currentTrack, "/org/quaver/Track/2")
        XCTAssertEqual(daemon.status, "Playing")
    }

    func testPreviousOnTheFirstTrackRestartsIt() throws {
        try daemon.playerctl("play")
        daemon.waitUntil("1 s played") { daemon.positionSeconds > 1 }
        XCTAssertEqual(try daemon.get("CanGoPrevious").boolValue, true, "playerctl needs it to send Previous")
        try daemon.playerctl("previous")
        daemon.waitUntil("restarted") { daemon.positionSeconds < 0.8 }
        XCTAssertEqual(daemon.currentTrack, "/org/quaver/Track/1")
    }

    func testAbsoluteAndRelativePositions() throws {
        try daemon.playerctl("play")
        daemon.waitUntil("seekable") { (try? daemon.get("CanSeek").boolValue) == true }
        try daemon.playerctl("position", "30")
        daemon.waitUntil("at 30 s") { (30...31.5).contains(daemon.positionSeconds) }
        try daemon.playerctl("position", "5+")
        daemon.waitUntil("at 35 s") { (35...36.5).contains(daemon.positionSeconds) }
        try daemon.playerctl("position", "5-")
        daemon.waitUntil("back at 30 s") { (30...31.8).contains(daemon.positionSeconds) }
        XCTAssertEqual(Double(try daemon.playerctl("position")) ?? 0, 30.5, accuracy: 1.5)
    }

    func testVolumeLoopAndShuffle() throws {
        try daemon.playerctl("volume", "0.4")
        XCTAssertEqual(try daemon.get("Volume").doubleValue ?? 0, 0.4, accuracy: 0.0001)
        XCTAssertEqual(Double(try daemon.playerctl("volume")) ?? 0, 0.4, accuracy: 0.0001)
        for mode in ["Track", "Playlist", "None"] {
            try daemon.playerctl("loop", mode)
            XCTAssertEqual(try daemon.get("LoopStatus").stringValue, mode)
            XCTAssertEqual(try daemon.playerctl("loop"), mode)
        }
        try daemon.playerctl("shuffle", "On")
        XCTAssertEqual(try daemon.get("Shuffle").boolValue, true)
        XCTAssertEqual(try daemon.playerctl("shuffle"), "On")
        try daemon.playerctl("shuffle", "Off")
        XCTAssertEqual(try daemon.get("Shuffle").boolValue, false)
    }

    func testMetadataFieldsOfATaggedTrackWithEmbeddedCover() throws {
        try daemon.playerctl("next")
        try daemon.playerctl("play")
        daemon.waitUntil("tags") { daemon.metadata["xesam:album"] != nil && daemon.metadata["mpris:length"] != nil }
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:title"), Fixtures.title)
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:artist"), Fixtures.artist)
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:album"), Fixtures.album)
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:trackNumber"), "\(Fixtures.trackNumber)")
        XCTAssertEqual(try daemon.playerctl("metadata", "xesam:url"), Media.uri(fixtures.flac))
        XCTAssertEqual(try daemon.playerctl("metadata", "mpris:trackid"), "'/org/quaver/Track/2'")
        XCTAssertEqual(Int64(try daemon.playerctl("metadata", "mpris:length")) ?? 0,
                       Int64(Fixtures.toneSeconds) * 1_000_000, accuracy: 50_000)
        let metadata = daemon.metadata
        XCTAssertEqual(metadata["xesam:artist"], .stringArray([Fixtures.artist]), "artist is as")
        XCTAssertEqual(metadata["xesam:trackNumber"], .int32(Int32(Fixtures.trackNumber)), "trackNumber is i")
        XCTAssertEqual(metadata["mpris:trackid"]?.objectPathValue?.rawValue, "/org/quaver/Track/2", "trackid is o")
        // The artwork: written once under $XDG_CACHE_HOME/quaver/art, byte for byte the embedded image.
        let art = try XCTUnwrap(URL(string: try daemon.playerctl("metadata", "mpris:artUrl")))
        XCTAssertTrue(art.isFileURL)
        XCTAssertEqual(art.deletingLastPathComponent().standardizedFileURL.path,
                       daemon.artDirectory.standardizedFileURL.path)
        XCTAssertEqual([UInt8](try Data(contentsOf: art)), fixtures.coverBytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: daemon.artDirectory.path).count, 1)
    }

    func testOpenURIQueuesAndPlays() throws {
        try daemon.playerctl("open", Media.uri(fixtures.vorbis))
        daemon.waitUntil("the opened track plays") {
            daemon.metadata["xesam:url"]?.stringValue == Media.uri(fixtures.vorbis) && daemon.status == "Playing"
        }
        XCTAssertEqual(daemon.tracks.count, 4)
        XCTAssertEqual(daemon.tracks[1], daemon.currentTrack, "queued right after the track that was current")
    }

    func testFollowSeesEveryStatusChange() throws {
        let directory = try TemporaryDirectory(prefix: "follow")
        let follower = try ChildProcess("playerctl", ["-p", "quaver", "--follow", "status"],
                                        environment: daemon.bus.environment, logDirectory: directory.url)
        defer { follower.stop() }
        func lines() -> [String] { follower.standardOutput.split(separator: "\n").map(String.init) }
        daemon.waitUntil("the first line") { lines() == ["Stopped"] }
        try daemon.call("Play")
        daemon.waitUntil("Playing") { lines().last == "Playing" }
        try daemon.call("Pause")
        daemon.waitUntil("Paused") { lines().last == "Paused" }
        try daemon.call("Stop")
        daemon.waitUntil("Stopped") { lines().last == "Stopped" }
        XCTAssertEqual(lines(), ["Stopped", "Playing", "Paused", "Stopped"], "each change once, nothing else")
    }
}
