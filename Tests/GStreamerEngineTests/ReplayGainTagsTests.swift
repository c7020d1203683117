@testable import GStreamerEngine
import XCTest

/// Each stream's ReplayGain tags made whole, as rgvolume would read them on a stream of its own.
final class ReplayGainTagsTests: XCTestCase {
    typealias Tags = ReplayGainTags

    func testMissingCounterpartsAreFilledAsRgvolumeFallsBack() {
        var tags = Tags()
        XCTAssertEqual(tags.adding([Tags.trackGain: -3]), [Tags.trackGain: -3, Tags.trackPeak: 1, Tags.albumGain: -3,
                                                           Tags.albumPeak: 1, Tags.referenceLevel: 89])
        tags.reset()
        XCTAssertEqual(tags.adding([Tags.albumGain: -7, Tags.albumPeak: 0.5]),
                       [Tags.trackGain: -7, Tags.trackPeak: 0.5, Tags.albumGain: -7, Tags.albumPeak: 0.5, Tags.referenceLevel: 89])
    }

    func testTagsInSeveralEventsAddUpUntilTheNextStream() {
        var tags = Tags()
        XCTAssertEqual(tags.adding([Tags.trackPeak: 0.25]), Tags.neutral, "a peak without a gain changes nothing")
        XCTAssertEqual(tags.adding([Tags.trackGain: -6])[Tags.trackPeak], 0.25)
        tags.reset()
        XCTAssertEqual(tags.adding([Tags.trackPeak: 0.25]), Tags.neutral)
    }

    func testValuesRgvolumeIgnoresCountAsMissing() {
        var tags = Tags()
        XCTAssertEqual(tags.adding([Tags.trackGain: -100, Tags.trackPeak: -1]), Tags.neutral)
        XCTAssertEqual(tags.adding([Tags.albumGain: -5, Tags.albumPeak: 0])[Tags.albumPeak], 1)
        tags.reset()
        XCTAssertEqual(tags.adding([Tags.trackGain: -50, Tags.referenceLevel: 108]), Tags.neutral,
                       "−50 dB against a reference 19 dB above the standard is −69 dB: out of range")
    }
}
