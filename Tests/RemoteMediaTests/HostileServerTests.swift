import Foundation
import RemoteMedia
import TestSupport
import XCTest

/// Each kind of garbage a server may send: the download fails with a clear error within its timeouts
/// (timeout 1 s, 1 retry, 0.1 s delay), and the cache holds nothing but the file's real bytes.
final class HostileServerTests: XCTestCase {
    private var server: TestServer!
    /// Two attempts, each at most the head deadline (2 × timeout), the delay, and slack for a loaded machine.
    private let bound = 2 * 2.0 + 0.2 + 2

    override func setUpWithError() throws {
        server = try TestServer("hostile")
    }

    override func tearDown() {
        server = nil
    }

    private func assertFails(_ path: String, saying words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let url = server.url(path)
        let run = try DownloadRun(url)
        guard let failure = run.failure(within: bound + 5) else {
            return XCTFail("\(path): no failure; events \(run.events)", file: file, line: line)
        }
        XCTAssertLessThan(failure.seconds, bound, "\(path): \(failure.text)", file: file, line: line)
        for word in words {
            XCTAssertTrue(failure.text.lowercased().contains(word.lowercased()), "\(path): \(failure.text)", file: file, line: line)
        }
        XCTAssertTrue(failure.text.hasPrefix(url), "the error names the URL: \(failure.text)", file: file, line: line)
        run.download.close()
        XCTAssertTrue(run.cachedBytesAreReal(url: url), "\(path): the cache holds bytes the server did not serve as the file",
                      file: file, line: line)
    }

    func testTheRealFileIsFetchedWhole() throws {
        let run = try DownloadRun(server.url("good"))
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        run.download.close()
        XCTAssertTrue(eventually { (try? Data(contentsOf: run.cache.dataFile(for: self.server.url("good"))).count) == TestServer.fileLength })
        XCTAssertTrue(run.cachedBytesAreReal(url: server.url("good")))
    }

    func testAMalformedStatusLine() throws { try assertFails("malformed-status", saying: []) }
    func testAHeaderSectionThatNeverEnds() throws { try assertFails("endless-headers", saying: ["head"]) }
    func testAOneMegabyteHeaderLine() throws { try assertFails("huge-header-line", saying: []) }
    func testAContentLengthLongerThanTheBody() throws { try assertFails("short-body", saying: ["retries"]) }
    func testABodyThatStalls() throws { try assertFails("stalled-body", saying: ["timed out"]) }
    func testAContentRangeForOtherBytes() throws { try assertFails("wrong-range", saying: ["Content-Range"]) }
    func testARedirectChainOfTenThousandHops() throws { try assertFails("redirect-chain/0", saying: ["redirect"]) }
    func testARedirectToAFileURL() throws { try assertFails("to-file", saying: ["file"]) }
    func testAGzipBomb() throws { try assertFails("gzip-bomb", saying: ["Content-Encoding"]) }

    func testATLSHandshakeThatHangs() throws {
        let silent = try TestServer("silent")
        let url = "https://127.0.0.1:\(silent.port)/song.mp3"
        let run = try DownloadRun(url)
        let failure = run.failure(within: bound + 5)
        XCTAssertNotNil(failure, "\(run.events)")
        XCTAssertLessThan(failure?.seconds ?? 99, bound, failure?.text ?? "")
        XCTAssertTrue(failure?.text.contains("timed out") == true, failure?.text ?? "")
    }
}
