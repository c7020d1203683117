@testable import GStreamerEngine
import XCTest

/// The average bitrate `quaver stats` shows, from what a file claims: a length of no time, or one so short
/// that the figure passes any integer, gives none rather than a trap.
final class BitrateTests: XCTestCase {
    func testTheAverageOfAFileOverItsPlayingTime() {
        XCTAssertEqual(GStreamerEngine.bitrate(bytes: 160_000, over: .seconds(10)), 128_000)
    }

    func testAClaimedLengthOfNoTimeOrANanosecondGivesNone() {
        XCTAssertNil(GStreamerEngine.bitrate(bytes: 160_000, over: .zero))
        XCTAssertNil(GStreamerEngine.bitrate(bytes: 160_000, over: .seconds(-3)))
        XCTAssertNil(GStreamerEngine.bitrate(bytes: 1 << 40, over: .nanoseconds(1)))
    }
}
