import ControlAPI
import DBus
import Foundation
import ListeningHistory
import TestSupport
import XCTest

/// `[scrobble]` in the real daemon against our fake ListenBrainz: playing_now at each start, a listen once it
/// counts, none for a skipped track; the token is read from a 0600 file and appears nowhere in the daemon's log.
final class ScrobbleWiringTests: XCTestCase {
    private static let token = "wiring-token-7f3a"

    /// Two tagged 40 s tones (ListenBrainz takes nothing shorter than 30 s), in a folder of their own.
    private func longTaggedTracks(in folder: TemporaryDirectory) throws -> [String] {
        try ["one", "two"].map { name in
            let path = folder.path + "/\(name).flac"
            try Fixtures.run("sox", ["-q", "-n", "--comment", "TITLE=Tone \(name)", "--add-comment", "ARTIST=\(Fixtures.artist)",
                                     "--add-comment", "ALBUM=\(Fixtures.album)", path, "synth", "40", "sine", "330", "vol", "0.3"])
            return path
        }
    }

    /// A home whose settings send listens to `server`, with the token in a file only its owner reads.
    private func scrobblingHome(sendingTo server: TestServer) throws -> TemporaryDirectory {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let tokenFile = home.path + "/listenbrainz-token"
        XCTAssertTrue(FileManager.default.createFile(atPath: tokenFile, contents: Data(Self.token.utf8),
                                                     attributes: [.posixPermissions: 0o600]))
        try Settings.write("[scrobble]\nlistenbrainz-url = \"\(server.url(""))\"\ntoken-file = \"\(tokenFile)\"\n", home: home)
        return home
    }

    func testPlayingNowAndAListenButNoneForASkip() throws {
        let server = try TestServer("listenbrainz", arguments: [Self.token])
        let home = try scrobblingHome(sendingTo: server)
        let daemon = try RunningDaemon(try longTaggedTracks(in: home), home: home)
        // playing_now goes out when a track starts, with the tags known then (none: nothing is sent), and a
        // just-started daemon may still be reading the first file's: Play once they are there.
        daemon.waitUntil("the first track's tags") { daemon.metadata[MetadataKey.title] == .string("Tone one") }
        try daemon.call("Play")
        daemon.waitUntil("the first track plays") { daemon.status == "Playing" }
        daemon.waitUntil("a second of the first track, then it is skipped") { daemon.positionSeconds >= 1 }
        try daemon.call("Next")

        // The 40 s tone counts at 20 s: when Metadata first shows it, and when the server has it.
        var counted = 0.0
        daemon.waitUntil("the listen counts", timeout: 40) {
            counted = Date().timeIntervalSince1970
            return daemon.metadata["xesam:useCount"] == .int32(1)
        }
        var requests: [[String: Any]] = []
        daemon.waitUntil("the listen is sent") {
            requests = server.requestLog.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return requests.contains { $0["type"] as? String == "single" }
        }
        XCTAssertEqual(requests.map { $0["type"] as? String }, ["playing_now", "playing_now", "single"])
        guard requests.count == 3 else { return XCTFail(daemon.process.standardError) }
        XCTAssertTrue(requests.allSatisfy { $0["status"] as? Int == 200 })
        let listen = try XCTUnwrap((requests[2]["listens"] as? [[String: Any]])?.first)
        let metadata = try XCTUnwrap(listen["track_metadata"] as? [String: Any])
        XCTAssertEqual(metadata["track_name"] as? String, "Tone two")
        XCTAssertEqual(metadata["artist_name"] as? String, Fixtures.artist)
        let received = try XCTUnwrap(requests[2]["time"] as? Double)
        print(String(format: "listen sent %.0f ms after Metadata showed it counted (polled every few ms)", (received - counted) * 1000))
        XCTAssertFalse(daemon.process.standardError.contains(Self.token), "the token is never logged")
    }

    /// A listen left waiting by an earlier run is sent at start, and then the sender's connection is closed, as the
    /// history's is between writes, so libsqlite3 leaves the daemon's maps. Fails when the sender keeps its connection
    /// after sending (libsqlite3 then stays mapped for the session).
    func testSQLiteIsUnloadedOnceWaitingListensAreSent() throws {
        let server = try TestServer("listenbrainz", arguments: [Self.token])
        let home = try scrobblingHome(sendingTo: server)
        let file = home.path + "/state/quaver/history.db"
        try FileManager.default.createDirectory(atPath: home.path + "/state/quaver", withIntermediateDirectories: true)
        try HistoryDatabase(path: file).record(.listen(Listen(listenedAt: 1_700_000_000, uri: "file:///m/waiting.flac",
                                                            artist: "Artist", title: "Title", album: "Album",
                                                            durationSeconds: 200, trackNumber: 1)))
        let daemon = try RunningDaemon(home: home)
        daemon.waitUntil("the waiting listen is sent") { !server.requestLog.isEmpty }
        daemon.waitUntil("libsqlite3 unloaded after the sending") {
            (try? RadioStormTests.loadedLibraries(of: daemon.process.pid).contains { $0.contains("libsqlite3") }) == false
        }
        XCTAssertEqual(try HistoryDatabase(path: file).waitingCount(), 0, "marked sent")
    }

    /// With scrobbling set up, a daemon that has queued nothing makes no history file: there is nothing to send
    /// from it, and making it ran SQLite at rest. Fails when the sender opens the history at start (the file then
    /// appears within milliseconds); the first queued track makes it, as without scrobbling.
    func testNoHistoryFileIsMadeAtStart() throws {
        let server = try TestServer("listenbrainz", arguments: [Self.token])
        let home = try scrobblingHome(sendingTo: server)
        let daemon = try RunningDaemon(home: home)
        let file = home.path + "/state/quaver/history.db"
        XCTAssertEqual(daemon.status, "Stopped", "answered: started")
        XCTAssertFalse(eventually(timeout: 2) { FileManager.default.fileExists(atPath: file) }, "made at start")
        try daemon.call("OpenUri", [.string(Media.uri(try Media.fixtures().flac))])
        try daemon.call("Pause")  // what is recorded while playing waits in the journal
        daemon.waitUntil("the first queued track makes it") { FileManager.default.fileExists(atPath: file) }
    }

    /// An hour of listens made while the server was away (in the history, as a daemon that could not send them
    /// leaves them) goes out when quaverd starts again: in order, in one import, each once.
    func testListensLeftFromAnOutageAreSentAtStart() throws {
        let server = try TestServer("listenbrainz", arguments: [Self.token])
        let home = try scrobblingHome(sendingTo: server)
        let times = (0..<15).map { 1_700_000_000 + Int64($0) * 240 }
        do {
            let history = try HistoryDatabase.open(path: home.path + "/state/quaver/history.db", now: 0) { XCTFail($0) }
            for time in times {
                try history.record(.listen(Listen(listenedAt: time, uri: "file:///m/\(time).flac", artist: "A", title: "T",
                                                album: nil, durationSeconds: 240, trackNumber: nil)))
            }
        }
        let daemon = try RunningDaemon(home: home)
        var requests: [[String: Any]] = []
        daemon.waitUntil("the listens are sent") {
            requests = server.requestLog.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return !requests.isEmpty
        }
        XCTAssertEqual(requests.map { $0["type"] as? String }, ["import"])
        let sent = (requests.first?["listens"] as? [[String: Any]] ?? []).compactMap { ($0["listened_at"] as? NSNumber)?.int64Value }
        XCTAssertEqual(sent, times)
        daemon.waitUntil("they are marked sent") {
            (try? HistoryDatabase(path: home.path + "/state/quaver/history.db").waitingCount()) == 0
        }
    }
}
