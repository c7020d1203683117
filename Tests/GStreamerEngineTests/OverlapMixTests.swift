@testable import GStreamerEngine
import XCTest

/// The overlap's arithmetic: equal-power gains, frames before the overlap untouched, each format mixed and clipped.
final class OverlapMixTests: XCTestCase {
    private let curve = EqualPowerCurve(start: 1, length: 2)

    func testTheGainsFollowTheEqualPowerCurve() {
        let expected: [(Double, Double, Double)] = [(0.5, 1, 0), (1, 1, 0), (1.5, 0.923880, 0.382683),
                                                    (2, 0.707107, 0.707107), (2.5, 0.382683, 0.923880), (3, 0, 1), (9, 0, 1)]
        for (time, outgoing, incoming) in expected {
            let gains = curve.gains(at: time)
            XCTAssertEqual(gains.outgoing, outgoing, accuracy: 1e-6, "outgoing at \(time) s")
            XCTAssertEqual(gains.incoming, incoming, accuracy: 1e-6, "incoming at \(time) s")
            XCTAssertEqual(gains.outgoing * gains.outgoing + gains.incoming * gains.incoming, 1, accuracy: 1e-12)
        }
    }

    func testFramesBeforeTheOverlapAreLeftBitExact() {
        // 1 frame per second: frames at 0, 1, 2, 3 s; the overlap starts at 1 s.
        let mix = OverlapMix(format: .s16, channels: 2, rate: 1, curve: curve)
        var outgoing: [Int16] = [-32768, 32767, 1234, -4321, 1000, 1000, 1000, 1000]
        let incoming: [Int16] = [5000, 5000, 3000, 3000, 3000, 3000]
        let used = mix(incoming, into: &outgoing, at: 0)
        XCTAssertEqual(used, 3)
        XCTAssertEqual(Array(outgoing[0..<2]), [-32768, 32767], "before the overlap: as it was")
        XCTAssertEqual(Array(outgoing[2..<4]), [1234, -4321], "the overlap's first frame: the outgoing alone, at full gain")
        XCTAssertEqual(Array(outgoing[4..<6]), [2828, 2828], "halfway: (1000 + 3000) × 0.7071, rounded")
        XCTAssertEqual(Array(outgoing[6..<8]), [3000, 3000], "the end: the incoming alone")
    }

    func testIntegerSumsClipAtFullScale() {
        let mix = OverlapMix(format: .s16, channels: 1, rate: 1, curve: EqualPowerCurve(start: 0, length: 2))
        var outgoing: [Int16] = [32767, -32768]
        let used = mix([32767, -32768], into: &outgoing, at: 1)
        XCTAssertEqual(used, 2)
        XCTAssertEqual(outgoing, [32767, -32768], "0.7071 × 2 × full scale clips at full scale")
        var wide: [Int32] = [Int32.max]
        let wideMix = OverlapMix(format: .s32, channels: 1, rate: 1, curve: EqualPowerCurve(start: 0, length: 2))
        XCTAssertEqual(wideMix([Int32.max], into: &wide, at: 1), 1)
        XCTAssertEqual(wide, [Int32.max])
    }

    func testFloatFormatsMixAsNumbers() {
        let quarter = EqualPowerCurve(start: 0, length: 4)
        var single: [Float] = [0.5]
        XCTAssertEqual(OverlapMix(format: .f32, channels: 1, rate: 1, curve: quarter)([0.25], into: &single, at: 1), 1)
        XCTAssertEqual(Double(single[0]), 0.5 * 0.923880 + 0.25 * 0.382683, accuracy: 1e-6)
        var double: [Double] = [-0.5]
        XCTAssertEqual(OverlapMix(format: .f64, channels: 1, rate: 1, curve: quarter)([1.0], into: &double, at: 3), 1)
        XCTAssertEqual(double[0], -0.5 * 0.382683 + 1.0 * 0.923880, accuracy: 1e-6)
    }

    func testAShortIncomingBufferMixesWhatItHolds() {
        let mix = OverlapMix(format: .s16, channels: 1, rate: 1, curve: EqualPowerCurve(start: 0, length: 10))
        var outgoing: [Int16] = [100, 100, 100, 100]
        XCTAssertEqual(mix([7], into: &outgoing, at: 0), 1)
        XCTAssertEqual(outgoing, [100, 100, 100, 100], "at g = 0 the incoming sample adds nothing")
        XCTAssertEqual(mix([], into: &outgoing, at: 0), 0)
    }
}

private extension OverlapMix {
    /// Mixes arrays of samples, `outgoing`'s first frame at `time` seconds.
    func callAsFunction<Sample>(_ incoming: [Sample], into outgoing: inout [Sample], at time: Double) -> Int {
        incoming.withUnsafeBytes { incomingBytes in
            outgoing.withUnsafeMutableBytes { add(incomingBytes, into: $0, firstFrameAt: time) }
        }
    }
}
