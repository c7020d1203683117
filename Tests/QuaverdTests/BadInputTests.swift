import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// Hostile or careless clients: each call gets an error or the spec's no-op, and the daemon keeps its queue.
final class BadInputTests: XCTestCase {
    private var daemon: RunningDaemon!
    private var fixtures: Fixtures!
    private var queue: [String] = []

    override func setUpWithError() throws {
        fixtures = try Media.fixtures()
        daemon = try RunningDaemon([try Media.longTone().path, fixtures.flac.path])
        queue = daemon.tracks
        XCTAssertEqual(queue.count, 2)
    }

    override func tearDown() { daemon = nil }

    private func assertError(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error." + name, "\(error)", file: file, line: line)
        }
    }

    func testWrongArgumentTypesAreRefused() throws {
        assertError("InvalidArgs") { try daemon.call("Seek", [.string("10")]) }
        assertError("InvalidArgs") { try daemon.call("SetPosition", [.string("/org/quaver/Track/1"), .int64(0)]) }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.int32(1)]) }
        assertError("InvalidArgs") { try daemon.call("GoTo", [.string("x")], on: ControlAPI.trackListInterface) }
        assertError("InvalidArgs") { try daemon.set("Volume", .string("loud")) }
        assertError("InvalidArgs") { try daemon.set("Shuffle", .array(element: "b", [.boolean(true)])) }
        assertError("InvalidArgs") { try daemon.set("LoopStatus", .string("Sometimes")) }
        assertError("PropertyReadOnly") { try daemon.set("PlaybackStatus", .string("Playing")) }
        assertError("PropertyReadOnly") { try daemon.set("Identity", .string("Evil"), ControlAPI.rootInterface) }
        assertError("UnknownProperty") { _ = try daemon.get("Loudness") }
        assertError("UnknownMethod") { try daemon.call("Rewind") }
        daemon.assertIntact(tracks: queue)
    }

    func testVolumeNaNIsRefusedAndOutOfRangeClamped() throws {
        try daemon.set("Volume", .double(0.5))
        assertError("InvalidArgs") { try daemon.set("Volume", .double(.nan)) }
        XCTAssertEqual(try daemon.get("Volume"), .double(0.5))
        try daemon.set("Volume", .double(-1))
        XCTAssertEqual(try daemon.get("Volume"), .double(0), "a negative volume becomes 0")
        try daemon.set("Volume", .double(7))
        XCTAssertEqual(try daemon.get("Volume"), .double(1))
        daemon.assertIntact(tracks: queue)
    }

    func testRateOutOfRangeIsRefusedAndZeroPauses() throws {
        try daemon.call("Play")
        assertError("InvalidArgs") { try daemon.set("Rate", .double(100)) }
        assertError("InvalidArgs") { try daemon.set("Rate", .double(-1)) }
        assertError("InvalidArgs") { try daemon.set("Rate", .double(.nan)) }
        XCTAssertEqual(try daemon.get("Rate"), .double(1))
        try daemon.set("Rate", .double(0))
        XCTAssertEqual(daemon.status, "Paused", "rate 0 acts as Pause")
        XCTAssertEqual(try daemon.get("Rate"), .double(1), "Rate is never 0")
        try daemon.set("Rate", .double(2))
        XCTAssertEqual(try daemon.get("Rate"), .double(2))
        daemon.assertIntact(tracks: queue)
    }

    func testHugeSeeksClampOrGoToTheNextTrack() throws {
        try daemon.call("Play")
        daemon.waitUntil("seekable") { (try? daemon.get("CanSeek").boolValue) == true }
        try daemon.call("Seek", [.int64(.min)])
        daemon.waitUntil("clamped at 0") { daemon.positionSeconds < 0.5 }
        XCTAssertEqual(daemon.currentTrack, queue[0])
        try daemon.call("Seek", [.int64(.max)])
        daemon.waitUntil("past the end acts as Next") { daemon.currentTrack == queue[1] }
        XCTAssertEqual(daemon.status, "Playing")
        daemon.assertIntact(tracks: queue)
    }

    func testUnknownTrackIdsDoNothing() throws {
        try daemon.call("Play")
        daemon.waitUntil("seekable") { (try? daemon.get("CanSeek").boolValue) == true }
        for path in ["/org/quaver/Track/999", ControlAPI.TrackPath.noTrack, "/elsewhere/1"] {
            try daemon.call("SetPosition", [.objectPath(try ObjectPath(path)), .int64(20_000_000)])
            try daemon.call("GoTo", [.objectPath(try ObjectPath(path))], on: ControlAPI.trackListInterface)
            try daemon.call("RemoveTrack", [.objectPath(try ObjectPath(path))], on: ControlAPI.trackListInterface)
        }
        // The current id with a position past the end, or negative: also ignored (docs/mpris.md, "Seek and SetPosition").
        try daemon.call("SetPosition", [.objectPath(try ObjectPath(queue[0])), .int64(3_600_000_000)])
        try daemon.call("SetPosition", [.objectPath(try ObjectPath(queue[0])), .int64(-5)])
        usleep(300_000)  // the point: nothing may happen, and a seek would show in the position by now
        XCTAssertLessThan(daemon.positionSeconds, 5, "no seek happened")
        XCTAssertEqual(daemon.currentTrack, queue[0])
        let reply = try daemon.call("GetTracksMetadata", [.objectPathArray(["/org/quaver/Track/999"])],
                                    on: ControlAPI.trackListInterface)
        XCTAssertEqual(reply[0].arrayValue?.count, 0)
        assertError("InvalidArgs") {
            try daemon.call("AddTrack", [.string(Media.uri(fixtures.mp3)), .objectPath("/org/quaver/Track/999"),
                                         .boolean(false)], on: ControlAPI.trackListInterface)
        }
        daemon.assertIntact(tracks: queue)
    }

    func testOpenUriRefusesWhatItCannotQueue() throws {
        assertError("FileNotFound") { try daemon.call("OpenUri", [.string(Media.uri(fixtures.missing))]) }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.string(Media.uri(fixtures.folder))]) }
        assertError("NotSupported") { try daemon.call("OpenUri", [.string("fd://0")]) }
        assertError("NotSupported") { try daemon.call("OpenUri", [.string("appsrc://")]) }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.string(String(repeating: "a", count: 1 << 20))]) }
        assertError("NotSupported") { try daemon.call("OpenUri", [.string("x" + String(repeating: "b", count: 1 << 10) + "://")]) }
        assertError("InvalidArgs") {  // past InputLimits.maximumURIBytes, whatever its scheme
            try daemon.call("OpenUri", [.string("x" + String(repeating: "b", count: 1 << 20) + "://")])
        }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.string("")]) }
        assertError("FileNotFound") {
            try daemon.call("AddTrack", [.string(Media.uri(fixtures.missing)), .objectPath(ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)),
                                         .boolean(true)], on: ControlAPI.trackListInterface)
        }
        daemon.assertIntact(tracks: queue)
        XCTAssertEqual(daemon.status, "Stopped")
    }

    /// Files that exist but are no sound (random bytes named .mp3, a text file) are refused before the
    /// queue changes: the song playing goes on where it was.
    func testFilesThatAreNotSoundAreRefusedAndPlaybackGoesOn() throws {
        try daemon.call("Play")
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.string(Media.uri(fixtures.randomBytes))]) }
        assertError("InvalidArgs") { try daemon.call("OpenUri", [.string("file:///etc/passwd")]) }
        assertError("InvalidArgs") {
            try daemon.call("AddTrack", [.string(Media.uri(fixtures.text)), .objectPath(ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)),
                                         .boolean(true)], on: ControlAPI.trackListInterface)
        }
        XCTAssertEqual(daemon.currentTrack, queue[0])
        XCTAssertEqual(daemon.status, "Playing")
        daemon.assertIntact(tracks: queue)
    }

    /// A file that looks like sound but fails when played (cut short after its header) is taken out
    /// again, and the track that was playing resumes where it was.
    func testAnOpenedFileThatFailsGivesBackTheSongThatWasPlaying() throws {
        try daemon.call("Play")
        daemon.waitUntil("two seconds played") { (try? daemon.get("Position").int64Value ?? 0) ?? 0 > 2_000_000 }
        try daemon.call("OpenUri", [.string(Media.uri(fixtures.truncated))])
        daemon.waitUntil("back on the first track") { daemon.currentTrack == queue[0] && daemon.tracks == queue }
        daemon.waitUntil("playing again") { daemon.status == "Playing" }
        let position = try daemon.get("Position").int64Value ?? 0
        XCTAssertGreaterThan(position, 1_800_000, "resumed where it was, not from the start")
        XCTAssertFalse((try daemon.get("LastError", "org.quaver.Quaver1").stringValue ?? "").isEmpty)
    }

    func testGetAllNeverFails() throws {
        for interface in [ControlAPI.rootInterface, ControlAPI.playerInterface, ControlAPI.trackListInterface] {
            XCTAssertFalse(try daemon.getAll(interface).isEmpty, interface)
        }
        try daemon.call("Stop")
        for id in queue { try daemon.call("RemoveTrack", [.objectPath(try ObjectPath(id))], on: ControlAPI.trackListInterface) }
        let empty = try daemon.getAll()
        XCTAssertEqual(empty["Metadata"]?.unwrapped.dictionaryValue?.count, 0, "empty Metadata without a track")
        XCTAssertEqual(empty["CanPlay"]?.unwrapped, .boolean(false))
        XCTAssertEqual(empty["Position"]?.unwrapped, .int64(0))
        XCTAssertEqual(daemon.tracks, [])
    }
}
