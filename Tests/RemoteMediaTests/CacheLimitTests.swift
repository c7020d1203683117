import Foundation
import Glibc
import RemoteMedia
import TestSupport
import XCTest

/// The cache's limit and the disk's free-space margin hold while a download grows (our server's `/huge`
/// announces 10 GB and sends as fast as it is read).
final class CacheLimitTests: XCTestCase {
    /// Nobody reads (as when paused): the download stops once the cache is full, and stays stopped.
    func testADownloadNobodyReadsStopsAtTheLimit() throws {
        let server = try TestServer("hostile")
        let limit: UInt64 = 1 << 20
        let run = try DownloadRun(server.url("huge"), capacity: limit)
        run.download.start()
        XCTAssertTrue(eventually(timeout: 10) { run.events.contains(.ready(size: 10_000_000_000)) }, "\(run.events)")
        let data = run.cache.dataFile(for: server.url("huge"))
        XCTAssertTrue(eventually(timeout: 10) { self.blocks(of: data) > limit - 128 * 1024 }, "\(self.blocks(of: data))")
        let deadline = Date().addingTimeInterval(2)
        var largest: UInt64 = 0
        while Date() < deadline {
            largest = max(largest, blocks(of: data))
            usleep(50_000)
        }
        XCTAssertLessThanOrEqual(largest, limit)
        XCTAssertFalse(run.events.contains { if case .failed = $0 { return true } else { return false } }, "\(run.events)")
    }

    /// Below the free-space margin nothing is written: the download fails at once, saying why.
    func testADiskBelowTheFreeSpaceMarginFailsTheDownloadClearly() throws {
        let server = try TestServer("hostile")
        let run = try DownloadRun(server.url("good"), minimumFreeBytes: UInt64.max / 2)
        let failure = run.failure(within: 10)
        XCTAssertEqual(failure?.kind, .other)
        XCTAssertTrue(failure?.text.contains("nearly full") == true, failure?.text ?? "\(run.events)")
        XCTAssertEqual(blocks(of: run.cache.dataFile(for: server.url("good"))), 0)
    }

    private func blocks(of file: URL) -> UInt64 {
        var info = stat()
        return lstat(file.path, &info) == 0 ? UInt64(info.st_blocks) * 512 : 0
    }
}
