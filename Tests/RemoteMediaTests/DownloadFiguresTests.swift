import Foundation
import RemoteMedia
import TestSupport
import XCTest

/// What a download tells of itself for `quaver stats` and BufferedRanges: bytes fetched, the ranges on disk,
/// the length, the retries, and `.progress` reports as bytes arrive, four a second at most.
final class DownloadFiguresTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws { server = try TestServer("hostile") }
    override func tearDown() { server = nil }

    func testAWholeDownloadCountsItsBytesAndReportsProgress() throws {
        let run = try DownloadRun(server.url("good"))
        let before = run.download.figures
        XCTAssertEqual(before.fetched, 0)
        XCTAssertEqual(before.present, [])
        XCTAssertNil(before.length)
        let started = Date()
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        let seconds = Date().timeIntervalSince(started)
        let length = UInt64(TestServer.fileLength)
        let after = run.download.figures
        XCTAssertEqual(after.fetched, length)
        XCTAssertEqual(after.present, [0..<length])
        XCTAssertEqual(after.length, length)
        XCTAssertEqual(after.retries, 0)
        XCTAssertTrue(run.events.contains(.progress), "\(run.events)")
        // 200 000 bytes from 127.0.0.1 arrive in a dozen pieces or more: one report for the first, one at the end,
        // and one per quarter second between.
        let reports = run.events.filter { $0 == .progress }.count
        XCTAssertLessThanOrEqual(reports, 2 + Int(seconds * 4), "\(reports) reports in \(seconds) s")
        XCTAssertLessThan(run.events.firstIndex(of: .progress) ?? .max, run.events.firstIndex(of: .complete) ?? 0,
                          "the last bytes are reported before the download says it is complete")
    }

    /// A server that cuts every answer halfway: each failed request tried again is counted.
    func testRetriesAreCounted() throws {
        let run = try DownloadRun(server.url("short-body"), options: DownloadOptions(retries: 2, timeout: 1, retryDelay: 0.1))
        XCTAssertNotNil(run.failure(within: 15), "\(run.events)")
        let figures = run.download.figures
        XCTAssertEqual(figures.retries, 2)
        XCTAssertGreaterThan(figures.fetched, 0)
        XCTAssertEqual(figures.length, UInt64(TestServer.fileLength))
    }
}
