import EventLoop
import Foundation
@testable import ListeningHistory
import Logging
import PlayerCore
import SQLite
import TestSupport
import XCTest

/// The journal kept while music plays (HistoryJournal): its lines read back as written, a line cut short by a kill
/// is skipped, and what it holds reaches history.db when playing pauses, at its bound, at the next start, and once.
final class HistoryJournalTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var path: String { folder.path + "/history.db" }
    private var journalPath: String { folder.path + "/history.journal" }

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "history-journal") }

    private func recorder(_ player: Player) throws -> HistoryRecorder {
        let database = try HistoryDatabase.open(path: path, now: 1) { XCTFail("set aside: \($0)") }
        return HistoryRecorder(player: player, connection: HistoryConnection(database), now: { 100 }, log: Logger(label: "test"))
    }

    /// A player playing a track its recorder (made after) did not see queued.
    private func playingPlayer() -> Player {
        let player = Player(engine: FakeEngine())
        player.add(["file:///music/playing.flac"])
        player.play()
        XCTAssertEqual(player.status, .playing)
        return player
    }

    /// Read through a read-only connection of the test's own, as another process would.
    private func column(_ name: String, of uri: String) -> Int64? {
        guard FileManager.default.fileExists(atPath: path),
              let reader = try? Database(path: path, readOnly: true, create: false),
              let rows = try? reader.query("SELECT \(name) FROM tracks WHERE uri = ?1", [.text(uri)]) else { return nil }
        return rows.first?.integer(0)
    }

    private func ratedTracks() -> Int64? {
        guard let reader = try? Database(path: path, readOnly: true, create: false) else { return nil }
        return try? reader.query("SELECT count(*) FROM tracks WHERE rating IS NOT NULL").first?.integer(0)
    }

    private var journalText: String { (try? String(contentsOfFile: journalPath, encoding: .utf8)) ?? "" }

    func testEveryKindOfChangeReadsBackAsWritten() {
        var listen = Listen(listenedAt: 2, uri: "file:///m/a%20b.flac", artist: "new\nline, tab\t, back\\slash \\N",
                            title: nil, album: "", durationSeconds: 200, trackNumber: nil)
        listen.musicBrainz = MusicBrainzTags(recording: "r-1", release: "", artist: "a\r")
        let changes: [HistoryChange] = [
            .added(["file:///m/1.flac", "file:///m/tab\there.flac"], at: 1), .listen(listen), .skip("file:///m/s", at: 3),
            .rating("file:///m/r", stars: nil, at: 4), .rating("file:///m/r", stars: 5, at: 5), .playlistPlayed("id\\", at: 6),
        ]
        let text = JournalLine.header("1f2e") + changes.map(JournalLine.encode).joined()
        XCTAssertEqual(text.filter { $0 == "\n" }.count, changes.count + 1, "one line each")
        let contents = HistoryJournal.contents(text)
        XCTAssertEqual(contents.id, "1f2e")
        XCTAssertEqual(contents.changes, changes)
        XCTAssertEqual(contents.unreadable, 0)
        // Six stars would fail the fold's transaction, and every later fold with it.
        let refused = HistoryJournal.contents(text + JournalLine.encode(.rating("file:///m/r", stars: 6, at: 7)))
        XCTAssertEqual(refused.changes, changes)
        XCTAssertEqual(refused.unreadable, 1)
    }

    /// A kill during a write leaves its line cut short: it is skipped, and the next append starts on a line of its
    /// own (without that, the next change would be lost with it).
    func testALineCutShortIsSkippedAndTheNextAppendStartsAfterIt() throws {
        let journal = HistoryJournal(besideHistoryAt: path)
        XCTAssertEqual(journal.path, journalPath)
        _ = try journal.append(.skip("file:///m/a", at: 1))
        let size = try journal.append(.skip("file:///m/b", at: 2))
        XCTAssertEqual(truncate(journalPath, off_t(size - 5)), 0)
        _ = try journal.append(.skip("file:///m/c", at: 3))
        let contents = try XCTUnwrap(try journal.read())
        XCTAssertEqual(contents.changes, [.skip("file:///m/a", at: 1), .skip("file:///m/c", at: 3)])
        XCTAssertEqual(contents.unreadable, 1)
        XCTAssertFalse(contents.id.isEmpty)
    }

    /// A file far past what a journal of ours can hold is read up to `readLimit` only: the lines there count,
    /// what lies past it is dropped as one unreadable line.
    func testAJournalPastTheReadLimitIsReadOnlyThatFar() throws {
        let journal = HistoryJournal(besideHistoryAt: path)
        _ = try journal.append(.skip("file:///m/a", at: 1))
        let descriptor = open(journalPath, O_WRONLY | O_APPEND)
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<(HistoryJournal.readLimit >> 20) + 2 {
            XCTAssertEqual(filler.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, filler.count)
        }
        close(descriptor)
        let contents = try XCTUnwrap(try journal.read())
        XCTAssertEqual(contents.changes, [.skip("file:///m/a", at: 1)])
        XCTAssertEqual(contents.unreadable, 2, "the filler read as far as the limit, and the rest past it")
    }

    func testChangesMadeWhilePlayingWaitInTheJournalUntilPlayingPauses() throws {
        let player = playingPlayer()
        let history = try recorder(player)
        let uri = "file:///music/playing.flac"
        history.rate(uri, 4)
        XCTAssertTrue(eventually(timeout: 10) { self.journalText.contains("\trating\t") }, "journaled")
        XCTAssertNil(column("rating", of: uri), "written through SQLite while playing")
        player.pause()
        // The fold waits for the player to stay paused a moment (`HistoryRecorder.stillSeconds`), on the loop.
        XCTAssertTrue(EventLoop.main.run(until: { self.column("rating", of: uri) == 4 }, timeout: 10), "folded in when paused")
        // The fold commits, then removes the journal: another connection can see the one before the other.
        XCTAssertTrue(EventLoop.main.run(until: { !FileManager.default.fileExists(atPath: self.journalPath) }, timeout: 10),
                      "removed once folded")
        XCTAssertTrue(EventLoop.main.run(until: { history.tracks[uri]?.firstAdded == 100 }, timeout: 10))
    }

    /// A file opened or a track skipped to while playing passes the player through Stopped for a moment: the
    /// journal waits until the player has stayed out of Playing (`HistoryRecorder.stillSeconds`), so SQLite is not
    /// loaded beside the next track's pipeline.
    func testAMomentOutOfPlayingDoesNotFoldTheJournal() throws {
        let player = playingPlayer()
        let history = try recorder(player)
        let uri = "file:///music/playing.flac"
        history.rate(uri, 4)
        XCTAssertTrue(eventually(timeout: 10) { self.journalText.contains("\trating\t") }, "journaled")
        player.stop()
        // The loop runs a moment while stopped, as it does between a track and the next: a fold waiting for no
        // time at all would run here.
        _ = EventLoop.main.run(until: { false }, timeout: HistoryRecorder.stillSeconds / 5)
        player.play()
        XCTAssertEqual(player.status, .playing)
        XCTAssertFalse(EventLoop.main.run(until: { self.column("rating", of: uri) == 4 }, timeout: HistoryRecorder.stillSeconds * 2),
                       "folded while the player was out of Playing for a moment only")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journalPath))
    }

    /// Rated a thousand times while playing, the journal is folded once it holds a thousand changes.
    func testTheJournalIsFoldedAtItsBoundWhilePlaying() throws {
        let player = playingPlayer()
        let history = try recorder(player)
        let bound = HistoryRecorder.journalBound.changes
        for number in 0..<bound { history.rate("file:///music/\(number).flac", 3) }
        // The fold commits, then removes the journal: another connection can see the one before the other.
        XCTAssertTrue(eventually(timeout: 20) {
            self.ratedTracks() == Int64(bound) && !FileManager.default.fileExists(atPath: self.journalPath)
        }, "\(String(describing: ratedTracks())) in the file")
        XCTAssertEqual(player.status, .playing)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalPath))
    }

    /// Ratings of tracks with kilobyte-long URIs: the journal is folded once it holds 256 KiB, long before a
    /// thousand changes.
    func testTheJournalIsFoldedAtItsSizeWhilePlaying() throws {
        let player = playingPlayer()
        let history = try recorder(player)
        let folder = "file:///music/" + String(repeating: "long%20folder/", count: 70)
        for number in 0..<300 { history.rate(folder + "\(number).flac", 3) }
        XCTAssertTrue(eventually(timeout: 20) { (self.ratedTracks() ?? 0) > 0 }, "nothing in the file")
        XCTAssertLessThan(ratedTracks() ?? 0, 300, "folded at the size bound, not at once")
        XCTAssertEqual(player.status, .playing)
    }

    /// A recorder gone while playing (as a daemon killed) leaves its journal; the next one folds it in at start,
    /// then reads the file.
    func testAJournalLeftBehindIsFoldedInAtStart() throws {
        let uri = "file:///music/playing.flac"
        do {
            let history = try recorder(playingPlayer())
            history.rate(uri, 2)
            XCTAssertTrue(eventually(timeout: 10) { self.journalText.contains("\trating\t") })
        }
        XCTAssertNil(column("rating", of: uri))
        let history = try recorder(Player(engine: FakeEngine()))
        history.load()
        XCTAssertTrue(EventLoop.main.run(until: { history.tracks[uri]?.rating == 2 }, timeout: 10), "read after the fold")
        XCTAssertEqual(column("rating", of: uri), 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalPath))
    }

    /// A kill after the fold's commit and before the journal's removal: the next fold of the same journal applies
    /// only what was appended since. Without the file's note of the last journal folded, the skip counted twice.
    func testAFoldCutShortAfterItsCommitIsNotAppliedAgain() throws {
        let uri = "file:///m/a.flac"
        let listen = Listen(listenedAt: 50, uri: uri, artist: "A", title: "T", album: nil, durationSeconds: 10, trackNumber: nil)
        let folded: [HistoryChange] = [.listen(listen), .skip(uri, at: 60), .rating(uri, stars: 3, at: 70)]
        let database = try HistoryDatabase.open(path: path, now: 1) { XCTFail("set aside: \($0)") }
        XCTAssertEqual(try database.fold(.init(id: "aa", changes: folded, unreadable: 0)), [uri, uri, uri])
        XCTAssertEqual(try database.fold(.init(id: "aa", changes: folded, unreadable: 0)), [], "folded again")
        _ = try database.fold(.init(id: "aa", changes: folded + [.skip(uri, at: 80)], unreadable: 0))
        XCTAssertEqual(column("play_count", of: uri), 1)
        XCTAssertEqual(column("skip_count", of: uri), 2, "the first skip once, the one appended later too")
        XCTAssertEqual(try database.waitingCount(), 1)
        _ = try database.fold(.init(id: "bb", changes: [.skip(uri, at: 90)], unreadable: 0))
        XCTAssertEqual(column("skip_count", of: uri), 3, "a new journal's changes all count")
    }
}
