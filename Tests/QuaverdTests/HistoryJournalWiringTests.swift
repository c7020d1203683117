import ControlAPI
import DBus
import Foundation
import SQLite
import TestSupport
import XCTest

/// The history's journal in the real daemon: what is recorded while playing survives a `kill -9` (a line cut short
/// by the kill is skipped with one log line) and reaches history.db at the next start, or at the daemon's stop.
final class HistoryJournalWiringTests: XCTestCase {
    private func files(_ daemon: RunningDaemon) -> (history: String, journal: String) {
        let folder = daemon.home.url.appendingPathComponent("state/quaver").path
        return (folder + "/history.db", folder + "/history.journal")
    }

    /// Read through a read-only connection of the test's own, as another process would.
    private func rating(_ uri: String, in file: String) -> Int64? {
        guard FileManager.default.fileExists(atPath: file),
              let reader = try? Database(path: file, readOnly: true, create: false),
              let row = try? reader.query("SELECT rating FROM tracks WHERE uri = ?1", [.text(uri)]).first else { return nil }
        return row.integer(0)
    }

    private func journaled(_ daemon: RunningDaemon, _ what: String) -> Bool {
        ((try? String(contentsOfFile: files(daemon).journal, encoding: .utf8)) ?? "").contains(what)
    }

    private func rateWhilePlaying(_ daemon: RunningDaemon) throws -> String {
        let uri = Media.uri(try Media.longTone())
        try daemon.call("OpenUri", [.string(uri)])
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        try daemon.call("SetRating", [.objectPath(try ObjectPath(ControlAPI.TrackPath.noTrack)), .int32(4)],
                        on: ControlAPI.quaverInterface)
        daemon.waitUntil("the rating journaled") { journaled(daemon, "\trating\t") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: files(daemon).history), "history.db made while playing")
        return uri
    }

    func testAKillWhilePlayingLosesNothingJournaledAndALineCutShortIsSkipped() throws {
        var daemon = try RunningDaemon()
        let uri = try rateWhilePlaying(daemon)
        daemon.process.send(SIGKILL)
        _ = daemon.process.waitForExit(timeout: 10)
        let (history, journal) = files(daemon)
        let cutShort = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try cutShort.seekToEnd()
        try cutShort.write(contentsOf: Data("0123456789abcdef\trating\t5\tfile:///".utf8))
        try cutShort.close()

        daemon = try RunningDaemon(home: daemon.home)
        daemon.waitUntil("the rating in history.db") { rating(uri, in: history) == 4 }
        daemon.waitUntil("the journal removed") { !FileManager.default.fileExists(atPath: journal) }
        daemon.waitUntil("one log line for the line cut short") {
            daemon.logTail.components(separatedBy: "history.journal unreadable").count == 2
        }
    }

    /// The daemon's stop folds the journal in: Fails when it exits with the journal left for the next start.
    func testTheDaemonsStopFoldsTheJournalIn() throws {
        let daemon = try RunningDaemon()
        let uri = try rateWhilePlaying(daemon)
        daemon.process.send(SIGTERM)
        XCTAssertNotNil(daemon.process.waitForExit(timeout: 10))
        XCTAssertEqual(rating(uri, in: files(daemon).history), 4)
        XCTAssertFalse(FileManager.default.fileExists(atPath: files(daemon).journal))
    }
}
