import ControlAPI
import DBus
import Foundation
import ListeningHistory
import TestSupport
import XCTest

/// The listening history in the real daemon: a listen counted from real playing shows in Metadata, a rating set
/// through `quaver rating` too, `quaver history` lists them, and all of it survives `kill -9` and a lost cache.
final class HistoryWiringTests: XCTestCase {
    private func quaver(_ daemon: RunningDaemon, _ arguments: String..., expectStatus: Int32 = 0,
                        file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let binary = productsDirectory.appendingPathComponent("quaver").path
        let withBus = [arguments[0], "--bus-address", daemon.bus.address] + arguments.dropFirst()
        let result = try ChildProcess.run(binary, withBus, environment: daemon.bus.environment, timeout: 20)
        XCTAssertEqual(result.status, expectStatus, "quaver \(arguments): \(result.stderr)", file: file, line: line)
        return result.stdout + result.stderr
    }

    func testAListenCountsShowsInMetadataAndSurvivesAKillAndALostCache() throws {
        let fixtures = try Media.fixtures()
        var daemon = try RunningDaemon([fixtures.flac.path, fixtures.wav.path])
        XCTAssertNil(daemon.metadata["xesam:useCount"])
        try daemon.call("Play")
        // The 10 s tone counts once 5 s have played.
        daemon.waitUntil("the listen counts", timeout: 20) { daemon.metadata["xesam:useCount"] == .int32(1) }
        let lastUsed = try XCTUnwrap(daemon.metadata["xesam:lastUsed"]?.stringValue)
        XCTAssertNotNil(lastUsed.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression), lastUsed)

        _ = try quaver(daemon, "rating", "4")
        daemon.waitUntil("the rating shows") { daemon.metadata["xesam:userRating"] == .double(0.8) }
        XCTAssertTrue(try quaver(daemon, "rating", "6", expectStatus: 64).contains("0 to 5"))
        XCTAssertThrowsError(try daemon.call("SetRating", [.objectPath("/org/quaver/Track/999999"), .int32(3)],
                                             on: ControlAPI.quaverInterface))
        XCTAssertThrowsError(try daemon.call("SetRating", [.objectPath(try ObjectPath(ControlAPI.TrackPath.noTrack)), .int32(9)],
                                             on: ControlAPI.quaverInterface))
        XCTAssertEqual(daemon.metadata["xesam:userRating"], .double(0.8), "refused ratings change nothing")

        let history = try JSONSerialization.jsonObject(with: Data(try quaver(daemon, "history", "--json").utf8)) as? [[String: Any]]
        XCTAssertEqual(history?.count, 1)
        XCTAssertEqual(history?.first?["plays"] as? Int, 1)
        XCTAssertEqual(history?.first?["rating"] as? Int, 4)
        XCTAssertEqual(history?.first?["url"] as? String, fixtures.flac.absoluteString)

        // Each change is its own transaction: a kill -9 keeps all of them; the cache holds none of it.
        daemon.process.send(SIGKILL)
        _ = daemon.process.waitForExit(timeout: 10)
        try FileManager.default.removeItem(at: daemon.home.url.appendingPathComponent("cache"))
        let home = daemon.home
        daemon = try RunningDaemon(home: home)
        daemon.waitUntil("the history is read again") {
            daemon.metadata["xesam:useCount"] == .int32(1) && daemon.metadata["xesam:userRating"] == .double(0.8)
        }
    }

    /// A daemon that has queued nothing makes no history file, so SQLite does not run at rest; the first queued
    /// track makes it, dated (HistoryConnection), once playing pauses (until then it waits in the journal).
    func testTheFileIsMadeByTheFirstQueuedTrack() throws {
        let fixtures = try Media.fixtures()
        let daemon = try RunningDaemon()
        let file = daemon.home.url.appendingPathComponent("state/quaver/history.db").path
        XCTAssertEqual(daemon.status, "Stopped", "answered: started")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "made before anything was queued")
        try daemon.call("OpenUri", [.string(Media.uri(fixtures.flac))])
        try daemon.call("Pause")
        daemon.waitUntil("the first track dated in a new file") {
            FileManager.default.fileExists(atPath: file)
                && (try? HistoryDatabase(path: file).firstAdded(Media.uri(fixtures.flac))) != nil
        }
    }
}
