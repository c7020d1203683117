import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// Saved playlists through the real `quaver` and quaverd: saved from the queue, loaded back, added, listed,
/// renamed and removed; bad names refused with the queue left alone.
final class SavedPlaylistTests: XCTestCase {
    var daemon: RunningDaemon!
    var uris: [String] = []

    override func setUpWithError() throws {
        daemon = try RunningDaemon()
        uris = try SavedPlaylistTests.musicFiles(in: daemon.home)
    }

    override func tearDown() { daemon = nil }

    /// Three fixtures copied into the daemon's `~/Music`, as URIs.
    static func musicFiles(in home: TemporaryDirectory) throws -> [String] {
        let fixtures = try Media.fixtures()
        let music = home.url.appendingPathComponent("Music/Album")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        return try [("1 one.wav", fixtures.wav), ("2 two.mp3", fixtures.mp3), ("3 three.flac", fixtures.flac)].map {
            let copy = music.appendingPathComponent($0.0)
            if !FileManager.default.fileExists(atPath: copy.path) { try FileManager.default.copyItem(at: $0.1, to: copy) }
            return copy.absoluteString
        }
    }

    @discardableResult
    func quaver(_ arguments: String..., expectStatus: Int32 = 0,
                file: StaticString = #filePath, line: UInt = #line) throws -> (stdout: String, stderr: String) {
        let binary = productsDirectory.appendingPathComponent("quaver").path
        let withBus = arguments.prefix(arguments[0] == "playlist" ? 2 : 1) + ["--bus-address", daemon.bus.address]
            + arguments.dropFirst(arguments[0] == "playlist" ? 2 : 1)
        let result = try ChildProcess.run(binary, Array(withBus), environment: daemon.bus.environment, timeout: 20)
        XCTAssertEqual(result.status, expectStatus, "quaver \(arguments): \(result.stderr)", file: file, line: line)
        return (result.stdout, result.stderr)
    }

    var queuedURIs: [String] {
        let reply = try? daemon.call("GetQueue", on: ControlAPI.quaverInterface)
        return (reply?.first?.arrayValue ?? []).compactMap { entry in
            entry.arrayValue?[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue
        }
    }

    func testSaveLoadAddListRenameAndRemove() throws {
        try daemon.call("AddTracks", [.stringArray(uris), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        try quaver("save", "road trip")
        let file = daemon.home.url.appendingPathComponent(".local/share/quaver/playlists/road trip.m3u8")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\n../../../../Music/Album/2 two.mp3\n"), "relative under ~/Music:\n\(text)")
        XCTAssertTrue(text.contains("#EXTINF:"), text)

        try quaver("clear")
        XCTAssertEqual(try quaver("load", "road trip", "--play").stdout, "queued 3 tracks\n")
        XCTAssertEqual(queuedURIs, uris)
        daemon.waitUntil("playing") { daemon.status == "Playing" }

        try quaver("add", "--playlist", "road trip", "--start")
        XCTAssertEqual(queuedURIs, uris + uris)

        let listed = try JSONSerialization.jsonObject(with: Data(try quaver("playlists", "--json").stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(listed?.first?["name"] as? String, "road trip")
        XCTAssertEqual(listed?.first?["tracks"] as? Int, 3)
        let id = try XCTUnwrap(listed?.first?["id"] as? String)
        XCTAssertTrue(id.hasPrefix(ControlAPI.PlaylistPath.prefix), id)

        try quaver("playlist", "rename", "road trip", "drive")
        let renamed = try JSONSerialization.jsonObject(with: Data(try quaver("playlists", "--json").stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(renamed?.first?["name"] as? String, "drive")
        XCTAssertEqual(renamed?.first?["id"] as? String, id, "the id goes with the playlist")
        try quaver("playlist", "rm", "drive")
        XCTAssertEqual(try quaver("playlists").stdout, "no saved playlists\n")
    }

    func testAPlaylistAmongTheMusicIsListedPlayedAndNeverChanged() throws {
        let found = daemon.home.url.appendingPathComponent("Music/Album/road.m3u")
        try "#EXTM3U\n3 three.flac\n1 one.wav\n".write(to: found, atomically: true, encoding: .utf8)
        let listed = try JSONSerialization.jsonObject(with: Data(try quaver("playlists", "--json").stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(listed?.map { $0["name"] as? String }, ["road"])
        XCTAssertEqual(listed?.first?["tracks"] as? Int, 2)

        XCTAssertEqual(try quaver("load", "road").stdout, "queued 2 tracks\n")
        XCTAssertEqual(queuedURIs, [uris[2], uris[0]])
        XCTAssertTrue(try quaver("playlist", "rm", "road", expectStatus: 1).stderr.contains("found among the music"))
        XCTAssertTrue(try quaver("playlist", "rename", "road", "x", expectStatus: 1).stderr.contains("does not change"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: found.path))

        try daemon.call("AddTracks", [.stringArray([uris[1]]), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        try quaver("save", "road")
        let after = try JSONSerialization.jsonObject(with: Data(try quaver("playlists", "--json").stdout.utf8)) as? [[String: Any]]
        XCTAssertEqual(after?.map { $0["name"] as? String }, ["road"], "the saved one hides the found one")
        XCTAssertEqual(after?.first?["tracks"] as? Int, 3)
        XCTAssertEqual(try String(contentsOf: found, encoding: .utf8), "#EXTM3U\n3 three.flac\n1 one.wav\n", "untouched")
    }

    func testBadNamesAndMissingPlaylistsAreRefusedAndTheQueueStays() throws {
        try daemon.call("AddTracks", [.stringArray(uris), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        let tracks = daemon.tracks
        for name in ["../escape", "a/b", "", "tab\there", String(repeating: "x", count: 300)] {
            let refused = try quaver("save", name, expectStatus: 1)
            XCTAssertTrue(refused.stderr.contains("playlist name"), refused.stderr)
        }
        XCTAssertTrue(try quaver("load", "nothing", expectStatus: 1).stderr.contains("no saved playlist"))
        XCTAssertTrue(try quaver("add", "--playlist", "nothing", expectStatus: 1).stderr.contains("no saved playlist"))
        try quaver("save", "kept")
        XCTAssertTrue(try quaver("add", "--playlist", "kept", "--next", "--start", expectStatus: 64).stderr.contains("cannot be combined"))
        try quaver("save", "other")
        XCTAssertTrue(try quaver("playlist", "rename", "kept", "other", expectStatus: 1).stderr.contains("already called"))
        XCTAssertTrue(try quaver("playlist", "rm", "nothing", expectStatus: 1).stderr.contains("no saved playlist"))
        XCTAssertThrowsError(try daemon.call("AddPlaylist", [.string("kept"), .string("middle"), .boolean(false)],
                                              on: ControlAPI.quaverInterface)) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
        daemon.assertIntact(tracks: tracks)
    }
}
