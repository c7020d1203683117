import Foundation
import RemoteMedia
import TestSupport
import XCTest

/// What a download tells of itself for `quaver stats` and BufferedRanges: bytes fetched, the ranges on disk,
/// the length, the retries, and `.progress` reports as bytes arrive.
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
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        let length = UInt64(TestServer.fileLength)
        let after = run.download.figures
        XCTAssertEqual(after.fetched, length)
        XCTAssertEqual(after.present, [0..<length])
        XCTAssertEqual(after.length, length)
        XCTAssertEqual(after.retries, 0)
        XCTAssertTrue(run.events.contains(.progress), "\(run.events)")
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
