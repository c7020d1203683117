import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// The session survives the daemon: a clean stop, a `kill -9` while playing, and a damaged state file.
final class PersistenceTests: XCTestCase {
    private var fixtures: Fixtures!

    override func setUpWithError() throws {
        fixtures = try Media.fixtures()
    }

    private var stateFolder: String { "state/quaver" }

    func testSIGTERMKeepsQueueTrackPositionAndSettingsAndRestoresPaused() throws {
        let files = [fixtures.flac, try Media.longTone(), fixtures.mp3]
        let first = try RunningDaemon(files.map(\.path))
        let ids = first.tracks
        try first.call("GoTo", [.objectPath(try ObjectPath(ids[1]))], on: ControlAPI.trackListInterface)
        try first.call("Play")
        first.waitUntil("seekable") { (try? first.get("CanSeek").boolValue) == true }
        try first.call("SetPosition", [.objectPath(try ObjectPath(ids[1])), .int64(20_000_000)])
        try first.set("Volume", .double(0.4))
        try first.set("Rate", .double(1.5))
        try first.set("LoopStatus", .string("Playlist"))
        try first.set("Shuffle", .boolean(true))
        first.waitUntil("past 21 s") { first.positionSeconds >= 21 }
        let position = first.positionSeconds
        first.process.send(SIGTERM)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0, first.process.standardError)

        let second = try RunningDaemon(bus: first.bus, home: first.home)
        XCTAssertEqual(urls(second), files.map(Media.uri), "the queue, in order")
        XCTAssertEqual(second.metadata["xesam:url"]?.stringValue, Media.uri(files[1]), "the current track")
        XCTAssertEqual(second.status, "Paused")
        second.waitUntil("the saved position") { abs(second.positionSeconds - position) < 1.5 }
        XCTAssertEqual(try second.get("Volume").doubleValue ?? 0, 0.4, accuracy: 0.001)
        XCTAssertEqual(try second.get("Rate").doubleValue, 1.5)
        XCTAssertEqual(try second.get("LoopStatus").stringValue, "Playlist")
        XCTAssertEqual(try second.get("Shuffle").boolValue, true)
        XCTAssertTrue(second.process.standardError.contains("restored 3 queued tracks"), second.process.standardError)
        try second.call("Play")
        second.waitUntil("playing on from there") { second.status == "Playing" && second.positionSeconds > position }
    }

    /// Playing, seeking and the tags the engine reports again leave state.json alone (only the small
    /// state.json.position is written); a setting rewrites it.
    func testPlayingWritesOnlyThePositionFile() throws {
        let daemon = try RunningDaemon([fixtures.flac.path, fixtures.mp3.path])
        let state = daemon.home.url.appendingPathComponent("\(stateFolder)/state.json").path
        daemon.waitUntil("tags read and saved", timeout: 15) {
            ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").components(separatedBy: Fixtures.title).count == 3
        }
        let inode = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber]) as? Int }
        let saved = inode(state)
        try daemon.call("Play")
        daemon.waitUntil("playing") { daemon.positionSeconds > 0.5 }
        try daemon.call("Seek", [.int64(3_000_000)])
        let position = state + ".position"
        let firstMark = inode(position)
        daemon.waitUntil("a newer position mark", timeout: 5) { inode(position) != nil && inode(position) != firstMark }
        XCTAssertEqual(inode(state), saved, "state.json must not be rewritten for the position")
        try daemon.set("Volume", .double(0.5))
        daemon.waitUntil("state.json rewritten for the volume", timeout: 5) { inode(state) != saved }
    }

    func testKillDuringPlaybackLosesAtMostTwoAndAHalfSeconds() throws {
        let files = [try Media.longTone(), fixtures.flac]
        let first = try RunningDaemon(files.map(\.path))
        try first.call("Play")
        first.waitUntil("seekable") { (try? first.get("CanSeek").boolValue) == true }
        try first.call("SetPosition", [.objectPath(try ObjectPath(first.tracks[0])), .int64(30_000_000)])
        first.waitUntil("past 34 s") { first.positionSeconds >= 34 }
        let position = first.positionSeconds
        first.process.send(SIGKILL)
        XCTAssertNotNil(first.process.waitForExit(timeout: 10))

        let second = try RunningDaemon(bus: first.bus, home: first.home)
        XCTAssertEqual(urls(second), files.map(Media.uri))
        XCTAssertEqual(second.metadata["xesam:url"]?.stringValue, Media.uri(files[0]))
        second.waitUntil("a position") { second.positionSeconds > 0 }
        let restored = second.positionSeconds
        XCTAssertGreaterThanOrEqual(restored, position - 2.5, "saved \(restored) s, killed at \(position) s")
        XCTAssertLessThanOrEqual(restored, position + 0.5)
    }

    func testCommandLineItemsJoinTheRestoredQueue() throws {
        let first = try RunningDaemon([fixtures.flac.path])
        try first.call("Quit", on: ControlAPI.rootInterface)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0)
        let second = try RunningDaemon([fixtures.mp3.path], bus: first.bus, home: first.home)
        XCTAssertEqual(urls(second), [Media.uri(fixtures.flac), Media.uri(fixtures.mp3)])
    }

    func testACorruptStateFileIsSetAsideAndTheDaemonStartsEmpty() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let folder = home.url.appendingPathComponent(stateFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"queue\": [{\"uri\": ".utf8).write(to: folder.appendingPathComponent("state.json"))

        let daemon = try RunningDaemon(home: home)
        daemon.assertIntact(tracks: [])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(names.filter { $0.hasPrefix("state.json.corrupt-") }.count, 1, "\(names)")
        XCTAssertTrue(daemon.process.standardError.contains("warning"), daemon.process.standardError)
        XCTAssertTrue(daemon.process.standardError.contains("state.json.corrupt-"), daemon.process.standardError)
        try daemon.call("OpenUri", [.string(Media.uri(fixtures.flac))])
        daemon.waitUntil("playing") { daemon.status == "Playing" }
    }

    func testStartsFreshWhenResumeOnStartIsOff() throws {
        let first = try RunningDaemon([fixtures.flac.path])
        try first.call("Quit", on: ControlAPI.rootInterface)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0)
        try Settings.write("[playback]\nresume-on-start = false\n", home: first.home)
        let second = try RunningDaemon(bus: first.bus, home: first.home)
        XCTAssertEqual(second.tracks, [])
    }

    /// The xesam:url of every queued track, in queue order.
    private func urls(_ daemon: RunningDaemon) -> [String] {
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        let reply = try? daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
        return (reply?.first?.arrayValue ?? []).map { $0.dictionaryValue?["xesam:url"]?.unwrapped.stringValue ?? "?" }
    }
}
