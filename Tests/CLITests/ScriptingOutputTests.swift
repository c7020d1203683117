import Foundation
import PlayerCore
import TestSupport
import XCTest

/// `quaver status --json`, `quaver queue --json`, `--format` and `--follow --json`: the documented fields
/// (docs/scripting.md) with the values the player has.
final class ScriptingOutputTests: XCTestCase {
    var service: QuaverService!
    var ids: [TrackID] = []

    override func setUpWithError() throws {
        service = try QuaverService()
        service.engine.timeScale = 0
        ids = service.player.add(try service.makeFiles(["a.flac", "b.flac"]))
        var tags = TrackTags()
        tags.title = "Song"
        tags.artists = ["Ann", "Bo"]
        tags.album = "Record"
        service.player.updateTags(ids[0], tags)
    }

    override func tearDown() { service = nil }

    /// The first track current and paused at `seconds`, the engine's events delivered.
    private func pauseFirstTrack(at seconds: Int64) {
        service.player.play()
        XCTAssertTrue(service.engine.deliverEvents())
        service.player.setPosition(.seconds(seconds), of: ids[0])
        XCTAssertTrue(service.engine.deliverEvents())
        service.player.pause()
    }

    private func jsonObject(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testStatusJSONHasTheDocumentedFieldsInOrder() throws {
        pauseFirstTrack(at: 90)
        let out = try service.quaver(["status", "--json"]).out
        XCTAssertTrue(out.hasSuffix("}\n") && out.split(separator: "\n").count == 1, out)
        let keys = ["state", "status", "track_id", "title", "artists", "album", "url", "length_us", "position_us",
                    "volume", "rate", "loop", "shuffle", "buffering_percent", "error", "sleep_timer", "sleep_seconds",
                    "waiting_reason", "error_kind"]
        let offsets = keys.map { out.range(of: "\"\($0)\":")?.lowerBound }
        XCTAssertFalse(offsets.contains(nil), out)
        XCTAssertEqual(offsets.compactMap { $0 }, offsets.compactMap { $0 }.sorted(), "fields in the documented order")
        let status = try jsonObject(out)
        XCTAssertEqual(status["state"] as? String, "paused")
        XCTAssertEqual(status["status"] as? String, "Paused")
        XCTAssertEqual(status["title"] as? String, "Song")
        XCTAssertEqual(status["artists"] as? [String], ["Ann", "Bo"])
        XCTAssertEqual(status["album"] as? String, "Record")
        XCTAssertEqual(status["url"] as? String, service.queueURIs[0])
        XCTAssertEqual(status["track_id"] as? String, "/org/quaver/Track/\(ids[0].rawValue)")
        XCTAssertEqual(status["length_us"] as? Int, 180_000_000)
        XCTAssertEqual(status["position_us"] as? Int, 90_000_000)
        XCTAssertEqual(status["volume"] as? Double, 1)
        XCTAssertEqual(status["rate"] as? Double, 1)
        XCTAssertEqual(status["loop"] as? String, "none")
        XCTAssertEqual(status["shuffle"] as? Bool, false)
        XCTAssertEqual(status["waiting_reason"] as? String, "none")
        XCTAssertEqual(status["error_kind"] as? String, "")
        XCTAssertEqual(status["buffering_percent"] as? Int, 100)
        XCTAssertEqual(status["error"] as? String, "")
        XCTAssertEqual(status["sleep_timer"] as? String, "off")
        XCTAssertTrue(status["sleep_seconds"] is NSNull, "\(status)")
    }

    func testStatusJSONWithAnEmptyQueueHasNulls() throws {
        service.player.clear()
        let status = try jsonObject(try service.quaver(["status", "--json"]).out)
        XCTAssertEqual(status["state"] as? String, "stopped")
        XCTAssertTrue(status["title"] is NSNull && status["track_id"] is NSNull && status["length_us"] is NSNull,
                      "\(status)")
        XCTAssertEqual(status["artists"] as? [String], [])
    }

    func testQueueJSON() throws {
        try service.quaver(["jump", "2"])
        let queue = try jsonObject(try service.quaver(["queue", "--json"]).out)
        XCTAssertEqual(queue["current"] as? Int, 2)
        let tracks = try XCTUnwrap(queue["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["index"] as? Int }, [1, 2])
        XCTAssertEqual(tracks.map { $0["current"] as? Bool }, [false, true])
        XCTAssertEqual(tracks.map { $0["title"] as? String }, ["Song", "b"])
        XCTAssertEqual(tracks.map { $0["url"] as? String }, service.queueURIs)
        XCTAssertEqual(tracks[0]["track_id"] as? String, "/org/quaver/Track/\(ids[0].rawValue)")
        service.player.clear()
        XCTAssertEqual(try service.quaver(["queue", "--json"]).out, #"{"current":null,"tracks":[]}"# + "\n")
    }

    func testFormatLikePlayerctl() throws {
        pauseFirstTrack(at: 65)
        let out = try service.quaver(["status", "--format", "{{artist}} - {{title}} {{position}}/{{length}} {{status}} {{volume}}%"]).out
        XCTAssertEqual(out, "Ann, Bo - Song 1:05/3:00 Paused 100%\n")
        let typo = try service.quaver(["status", "--format", "{{artits}}"], expectStatus: 64)
        XCTAssertTrue(typo.err.contains("unknown field {{artits}}") && typo.err.contains("artist, title"), typo.err)
        try service.quaver(["status", "--json", "--format", "{{title}}"], expectStatus: 64)
    }

    func testFollowJSONPrintsOneLinePerChange() throws {
        let follower = try service.startQuaver(["status", "--follow", "--json"])
        defer { follower.stop() }
        func states() -> [String] {
            follower.standardOutput.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["state"] as? String
            }
        }
        XCTAssertTrue(pump(until: { states() == ["stopped"] }, timeout: 10), follower.standardOutput)
        service.player.play()
        XCTAssertTrue(pump(until: { states().last == "playing" }, timeout: 10), follower.standardOutput)
        service.player.pause()
        XCTAssertTrue(pump(until: { states().last == "paused" }, timeout: 10), follower.standardOutput)
        // No line a second: nothing changes for 2.5 s, nothing is printed.
        let lines = follower.standardOutput.split(separator: "\n").count
        _ = pump(until: { false }, timeout: 2.5)
        XCTAssertEqual(follower.standardOutput.split(separator: "\n").count, lines, follower.standardOutput)
        follower.send(SIGTERM)
        XCTAssertTrue(pump(until: { !follower.isRunning }, timeout: 10))
        XCTAssertEqual(follower.process.terminationStatus, 0, follower.standardError)
    }

    func testFollowFormatPrintsWhenTheTextChanges() throws {
        let follower = try service.startQuaver(["status", "--follow", "--format", "{{title}} {{status}}"])
        defer { follower.stop() }
        XCTAssertTrue(pump(until: { follower.standardOutput == "Song Stopped\n" }, timeout: 10), follower.standardOutput)
        service.player.play()
        XCTAssertTrue(pump(until: { follower.standardOutput == "Song Stopped\nSong Playing\n" }, timeout: 10),
                      follower.standardOutput)
    }
}
