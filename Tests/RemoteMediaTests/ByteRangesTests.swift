@testable import RemoteMedia
import XCTest

/// The present bytes of a cached file: what a full cache gives back, and what it fetches next.
final class ByteRangesTests: XCTestCase {
    func testRemovingCutsRangesAtBothEdgesAndDropsWhatItCovers() {
        var ranges = ByteRanges([0..<100, 200..<300, 400..<500])
        ranges.remove(50..<250)
        XCTAssertEqual(ranges.ranges, [0..<50, 250..<300, 400..<500])
        ranges.remove(250..<1000)
        XCTAssertEqual(ranges.ranges, [0..<50])
        ranges.remove(60..<70)
        XCTAssertEqual(ranges.ranges, [0..<50])
    }

    func testBytesInsideAWindow() {
        let ranges = ByteRanges([0..<100, 200..<300])
        XCTAssertEqual(ranges.byteCount(in: 50..<250), 100)
        XCTAssertEqual(ranges.byteCount(in: 100..<200), 0)
    }

    /// Ahead of the reader only: a file larger than the cache never fetches what lies behind it.
    func testTheGapAheadIgnoresWhatIsMissingBehind() {
        let ranges = ByteRanges([100..<200])
        XCTAssertEqual(ranges.gapAhead(from: 150, length: 300), 200..<300)
        XCTAssertNil(ByteRanges([100..<300]).gapAhead(from: 150, length: 300))
        XCTAssertEqual(ByteRanges([100..<300]).firstGap(from: 150, length: 300), 0..<100)
    }
}
