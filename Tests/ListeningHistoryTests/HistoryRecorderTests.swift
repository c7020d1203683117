import EventLoop
import Foundation
import ListeningHistory
import Logging
import PlayerCore
import SQLite
import TestSupport
import XCTest

/// The loop's copy of the history keeps only tracks that show something; when a track was first queued stays in
/// the file, and reaches the loop's copy once the track is rated, skipped or played.
final class HistoryRecorderTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var path: String { folder.path + "/history.db" }
    private var time: Int64 = 100

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "history-recorder") }

    private func recorder(_ player: Player) throws -> HistoryRecorder {
        let database = try HistoryDatabase.open(path: path, now: 1) { XCTFail("set aside: \($0)") }
        return HistoryRecorder(player: player, connection: HistoryConnection(database), now: { [unowned self] in time }, log: Logger(label: "test"))
    }

    /// Read through a read-only connection of its own, as another process would, once the file is there. The reader
    /// used to open it read-write (setting up WAL and the schema): racing the recorder's first write, which makes
    /// the file, it failed testAFileNotMadeYetIsMadeByTheFirstWrite in about one class run in ten.
    private func firstAdded(_ uri: String) -> Int64? {
        guard FileManager.default.fileExists(atPath: path),
              let reader = try? Database(path: path, readOnly: true, create: false),
              let rows = try? reader.query("SELECT first_added FROM tracks WHERE uri = ?1", [.text(uri)]) else { return nil }
        return rows.first?.integer(0)
    }

    func testQueuedTracksAreDatedInTheFileAndNotKeptOnTheLoop() throws {
        let player = Player(engine: FakeEngine())
        let history = try recorder(player)
        let uris = (0..<1000).map { "file:///music/album/\($0).flac" }
        player.add(uris)
        XCTAssertTrue(eventually(timeout: 10) { self.firstAdded(uris[999]) == 100 }, "dated in the file")
        XCTAssertTrue(history.tracks.isEmpty, "\(history.tracks.count) tracks only queued kept on the loop")

        time = 200
        player.replace(with: Array(uris.prefix(10)) + ["file:///music/new.flac"])
        XCTAssertTrue(eventually(timeout: 10) { self.firstAdded("file:///music/new.flac") == 200 })
        XCTAssertEqual(firstAdded(uris[0]), 100, "queued again, the first date is kept")
        XCTAssertTrue(history.tracks.isEmpty)
    }

    /// A file not made yet is made by the first write, after the history is read (with nothing to read).
    func testAFileNotMadeYetIsMadeByTheFirstWrite() throws {
        let player = Player(engine: FakeEngine())
        let connection = HistoryConnection(at: path, openedByFirstWrite: { [path] in
            try HistoryDatabase.open(path: path, now: 1) { XCTFail("set aside: \($0)") }
        })
        let history = HistoryRecorder(player: player, connection: connection, now: { [unowned self] in time }, log: Logger(label: "test"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "made before any write")
        history.load()
        player.add(["file:///music/first.flac"])
        XCTAssertTrue(eventually(timeout: 10) { self.firstAdded("file:///music/first.flac") == 100 }, "made and dated")
    }

    func testARatedTrackTakesTheDateItWasFirstQueuedFromTheFile() throws {
        let player = Player(engine: FakeEngine())
        let history = try recorder(player)
        let uri = "file:///music/rated.flac"
        player.add([uri])
        XCTAssertTrue(eventually(timeout: 10) { self.firstAdded(uri) == 100 })
        time = 500
        history.rate(uri, 4)
        XCTAssertEqual(history.tracks[uri]?.rating, 4, "shown at once")
        XCTAssertTrue(EventLoop.main.run(until: { history.tracks[uri]?.firstAdded == 100 }, timeout: 10),
                      "first added \(String(describing: history.tracks[uri]?.firstAdded)), queued at 100")
    }

    func testTheFileIsReadBackWithoutTracksOnlyQueued() throws {
        do {
            let player = Player(engine: FakeEngine())
            let history = try recorder(player)
            player.add(["file:///music/a.flac", "file:///music/b.flac"])
            time = 500
            history.rate("file:///music/b.flac", 2)
            // The date read back from the file: the rating is written by then.
            XCTAssertTrue(EventLoop.main.run(until: { history.tracks["file:///music/b.flac"]?.firstAdded == 100 }, timeout: 10))
        }
        let history = try recorder(Player(engine: FakeEngine()))
        history.load()
        XCTAssertTrue(EventLoop.main.run(until: { !history.tracks.isEmpty }, timeout: 10))
        XCTAssertEqual(Array(history.tracks.keys), ["file:///music/b.flac"])
        XCTAssertEqual(history.tracks["file:///music/b.flac"]?.rating, 2)
    }
}
