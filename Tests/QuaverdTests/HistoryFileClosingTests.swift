import ControlAPI
import DBus
import Foundation
import SQLite
import TestSupport
import XCTest

/// The history file is open only while the history has something to write or read: after each write (the queued
/// track's date, a rating) and after the start-up read, the connection is closed and libsqlite3 unloaded, so a
/// playing daemon does not keep SQLite resident between writes (docs/reliability.md, "Memory while playing").
final class HistoryFileClosingTests: XCTestCase {
    private func sqliteIsMapped(_ daemon: RunningDaemon) throws -> Bool {
        try RadioStormTests.loadedLibraries(of: daemon.process.pid).contains { $0.contains("libsqlite3") }
    }

    /// Read through a read-only connection of the test's own, as another process would.
    private func row(_ uri: String, in file: String) -> (firstAdded: Int64?, rating: Int64?)? {
        guard FileManager.default.fileExists(atPath: file),
              let reader = try? Database(path: file, readOnly: true, create: false),
              let row = try? reader.query("SELECT first_added, rating FROM tracks WHERE uri = ?1", [.text(uri)]).first
        else { return nil }
        return (row.integer(0), row.integer(1))
    }

    /// Fails on a daemon that keeps its history connection open: libsqlite3 stays mapped from the first queued
    /// track on.
    func testSQLiteIsUnloadedBetweenHistoryWritesWhilePlayingAndAfterTheStartUpRead() throws {
        let fixtures = try Media.fixtures()
        var daemon = try RunningDaemon()
        let file = daemon.home.url.appendingPathComponent("state/quaver/history.db").path
        let uri = Media.uri(fixtures.flac)
        try daemon.call("OpenUri", [.string(uri)])
        try daemon.call("Pause")  // the 10 s tone stays current; pausing folds the journal kept while playing
        daemon.waitUntil("the track dated in the file") { row(uri, in: file)?.firstAdded != nil }
        daemon.waitUntil("libsqlite3 unloaded after the write") { (try? sqliteIsMapped(daemon)) == false }

        try daemon.call("SetRating", [.objectPath(try ObjectPath(ControlAPI.TrackPath.noTrack)), .int32(4)],
                        on: ControlAPI.quaverInterface)
        daemon.waitUntil("the rating written through a connection opened again") { row(uri, in: file)?.rating == 4 }
        daemon.waitUntil("libsqlite3 unloaded again") { (try? sqliteIsMapped(daemon)) == false }

        let home = daemon.home
        daemon.process.send(SIGTERM)
        XCTAssertNotNil(daemon.process.waitForExit(timeout: 10))
        daemon = try RunningDaemon(home: home)
        daemon.waitUntil("the history read at start") { daemon.metadata["xesam:userRating"] == .double(0.8) }
        daemon.waitUntil("libsqlite3 unloaded after the start-up read") { (try? sqliteIsMapped(daemon)) == false }
    }

    /// Through a track's listen (5 s into the 10 s tone), libsqlite3 is never in the daemon's maps: the queued
    /// track's date and the listen wait in the journal, and reach the file when playing pauses. Fails when they are
    /// written through SQLite while playing (each write maps it for about 12 ms; sampled every few milliseconds).
    func testSQLiteIsNotLoadedWhileATrackPlaysThroughItsListen() throws {
        let fixtures = try Media.fixtures()
        let daemon = try RunningDaemon()
        let file = daemon.home.url.appendingPathComponent("state/quaver/history.db").path
        let uri = Media.uri(fixtures.flac)
        try daemon.call("OpenUri", [.string(uri)])
        var samples = 0, mappedSamples = 0
        let deadline = Date().addingTimeInterval(30)
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.process.pid)/maps"))
        defer { try? maps.close() }
        let library = Data("libsqlite3".utf8)
        while Date() < deadline {
            samples += 1
            // The whole file read again each time, searched as bytes: under a millisecond a sample (8 000 in 6 s
            // here), where each write through SQLite maps libsqlite3 for about 12 ms (22 to 27 samples caught it).
            try maps.seek(toOffset: 0)
            if try maps.readToEnd()?.range(of: library) != nil { mappedSamples += 1 }
            if samples % 500 == 0, daemon.metadata["xesam:useCount"] == .int32(1) { break }
        }
        XCTAssertEqual(daemon.metadata["xesam:useCount"], .int32(1), "the listen counted")
        XCTAssertEqual(daemon.status, "Playing")
        XCTAssertEqual(mappedSamples, 0, "libsqlite3 mapped in \(mappedSamples) of \(samples) samples")
        try daemon.call("Pause")
        daemon.waitUntil("the listen in the file once paused") { row(uri, in: file)?.firstAdded != nil && playCount(uri, in: file) == 1 }
        daemon.waitUntil("libsqlite3 unloaded after the fold") { (try? sqliteIsMapped(daemon)) == false }
    }

    private func playCount(_ uri: String, in file: String) -> Int64? {
        guard let reader = try? Database(path: file, readOnly: true, create: false) else { return nil }
        return try? reader.query("SELECT play_count FROM tracks WHERE uri = ?1", [.text(uri)]).first?.integer(0)
    }
}
