@testable import GStreamerEngine
import PlayerCore
import XCTest

/// The tag scanner's list of tracks still to look at gives back exactly the ids it was given, in order,
/// however they were queued (one long call, edits, a queue replaced in another order).
final class TrackIDRunsTests: XCTestCase {
    func testIdsComeBackInTheOrderGiven() {
        var runs = TrackIDRuns()
        var expected: [UInt64] = []
        var generator = SystemRandomNumberGenerator()
        var next: UInt64 = 1
        for round in 0..<300 {
            // Consecutive ids (one AddTracks), a shuffled handful (a replaced queue), and repeats.
            var batch = Array(next..<next + UInt64.random(in: 1...50, using: &generator))
            next += UInt64(batch.count)
            if round % 3 == 0 { batch.shuffle(using: &generator) }
            if round % 7 == 0 { batch += batch.prefix(2) }
            runs.append(batch.map(TrackID.init))
            expected += batch
            // Take some out between appends, as refills do.
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                guard let id = runs.popFirst() else { break }
                XCTAssertEqual(id.rawValue, expected.removeFirst())
            }
        }
        while let id = runs.popFirst() { XCTAssertEqual(id.rawValue, expected.removeFirst()) }
        XCTAssertTrue(expected.isEmpty)
        XCTAssertTrue(runs.isEmpty)
    }
}
