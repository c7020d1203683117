import Playlists
import XCTest

final class NaturalOrderTests: XCTestCase {
    func testNumbersCompareByValueAndCaseIsIgnored() {
        let names = ["track10.flac", "Track2.flac", "track1.flac", "TRACK 3.flac", "track02b.flac", "b", "A", "a10b2", "a10b10", "a9"]
        XCTAssertEqual(names.sorted(by: naturallyPrecedes),
                       ["A", "a9", "a10b2", "a10b10", "b", "TRACK 3.flac", "track1.flac", "Track2.flac", "track02b.flac", "track10.flac"])
    }

    func testHugeNumbersDoNotOverflow() {
        XCTAssertTrue(naturallyPrecedes("x99999999999999999999999", "x100000000000000000000000"))
        XCTAssertFalse(naturallyPrecedes("x100000000000000000000000", "x99999999999999999999999"))
    }

    func testNamesEqualByRuleStillHaveATotalOrder() {
        XCTAssertTrue(naturallyPrecedes("01", "1") != naturallyPrecedes("1", "01"))
        XCTAssertTrue(naturallyPrecedes("A", "a") != naturallyPrecedes("a", "A"))
        XCTAssertFalse(naturallyPrecedes("same", "same"))
    }

    func testPrefixComesFirst() {
        XCTAssertTrue(naturallyPrecedes("track", "track1"))
        XCTAssertTrue(naturallyPrecedes("track1", "track1a"))
    }
}
