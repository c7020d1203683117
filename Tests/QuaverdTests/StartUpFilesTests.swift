import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// What a freshly started daemon does not make until it needs it: the library index when there is nothing to
/// index (the default `~/Music`, not there), so that SQLite does not run at rest, and libsqlite3 is not even
/// loaded (docs/reliability.md).
final class StartUpFilesTests: XCTestCase {
    /// Fails when the first scan makes the index to mark a folder that is not there: the file then appears
    /// within milliseconds of the start.
    func testNoLibraryIndexIsMadeWithoutAMusicFolderUntilASearch() throws {
        let daemon = try RunningDaemon()
        let index = daemon.home.url.appendingPathComponent("cache/quaver/library.db").path
        XCTAssertEqual(daemon.status, "Stopped", "answered: started")
        XCTAssertFalse(eventually(timeout: 2) { FileManager.default.fileExists(atPath: index) }, "made at start")
        let atRest = try RadioStormTests.loadedLibraries(of: daemon.process.pid)
        XCTAssertFalse(atRest.contains { $0.contains("libsqlite3") }, "libsqlite3 is loaded by the first connection only")

        let searched = Int64(Date().timeIntervalSince1970)
        let page = try daemon.call("Search", [.string("anything"), .uint32(0), .uint32(10)], on: ControlAPI.libraryInterface)
        XCTAssertEqual(page.first?.arrayValue?.count, 0)
        XCTAssertEqual(page.last?.int64Value, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: index), "the search reads a file made for it")
        XCTAssertTrue(try RadioStormTests.loadedLibraries(of: daemon.process.pid).contains { $0.contains("libsqlite3") })
        let statistics = try XCTUnwrap(try daemon.call("Statistics", on: ControlAPI.libraryInterface).first?.dictionaryValue)
        XCTAssertEqual(statistics["Tracks"]?.unwrapped.int64Value, 0)
        let lastScan = try XCTUnwrap(statistics["LastScan"]?.unwrapped.int64Value)
        XCTAssertTrue(lastScan > 0 && lastScan <= searched, "LastScan \(lastScan) is the scan at start, before \(searched)")
    }

    /// Threads with nothing to do are not started: the library's reader (until the first query) and libdispatch
    /// workers for reading a history or listing playlist folders that are not there. Fails on a daemon that starts
    /// them: they appear within milliseconds of the start.
    func testNoThreadIsStartedForWorkThatIsNotThere() throws {
        let daemon = try RunningDaemon()
        XCTAssertEqual(daemon.status, "Stopped", "answered: started")
        var names: [String] = []
        let started = eventually(timeout: 2) {
            names = self.threadNames(of: daemon.process.pid)
            return names.contains { $0 == "quaver-library" || $0.contains("qos") }
        }
        XCTAssertFalse(started, "\(names)")
    }

    private func threadNames(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
