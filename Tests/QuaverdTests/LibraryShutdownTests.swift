import ControlAPI
import DBus
import Foundation
import SQLite
import TestSupport
import XCTest

/// quaverd asked to stop in the middle of its first scan of a large music folder exits at once (the scan ends
/// at its next batch), and the next start goes on from what was committed.
final class LibraryShutdownTests: XCTestCase {
    func testSIGTERMDuringTheFirstScanEndsQuaverdAtOnce() throws {
        let home = try TemporaryDirectory(prefix: "library-shutdown")
        try TaggedTree.write((0..<6000).map { TaggedTree.File("a\($0 / 100)/\($0).flac", ["TITLE": "Song \($0)"]) },
                             under: home.url.appendingPathComponent("Music"), seconds: 0.1)
        var daemon: RunningDaemon? = try RunningDaemon(home: home)
        let scanning = { (try? daemon?.get("Scanning", ControlAPI.libraryInterface).boolValue) == true }
        guard eventually(timeout: 10, scanning) else { throw XCTSkip("the scan ended before it was seen: too fast to test here") }
        let process = try XCTUnwrap(daemon?.process)
        let asked = Date()
        process.send(SIGTERM)
        XCTAssertEqual(process.waitForExit(timeout: 10), 0)
        XCTAssertLessThan(Date().timeIntervalSince(asked), 2, "quaverd waited for the scan")
        daemon = nil
        let index = try Database(path: home.path + "/cache/quaver/library.db", readOnly: true, create: false)
        let indexed = try index.query("SELECT count(*) FROM tracks").first?.integer(0) ?? -1
        XCTAssertLessThan(indexed, 6000, "the scan went on to its end before quaverd stopped")

        let again = try RunningDaemon(home: home)
        XCTAssertTrue(eventually(timeout: 60) {
            (try? again.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 6000
        }, again.logTail)
    }
}
