import ControlAPI
import DBus
@testable import QuaverCLI
import XCTest

/// `quaver status --follow`'s bar: played `#`, downloaded and not played `=` (BufferedRanges), the rest `-`.
final class LiveBarTests: XCTestCase {
    private func status(position seconds: Int64, buffered: [(Double, Double)], buffering: Int32 = 100) -> PlayerStatus {
        let metadata = DBusValue.variantDictionary([MetadataKey.title: .string("Song"), MetadataKey.length: .int64(100_000_000)])
        let ranges = DBusValue.array(element: "(dd)", buffered.map { .structure([.double($0.0), .double($0.1)]) })
        return PlayerStatus(player: [PlayerProperty.metadata: metadata, PlayerProperty.playbackStatus: .string("Paused"),
                                     PlayerProperty.position: .int64(seconds * 1_000_000)],
                            quaver: [QuaverProperty.state: .string("paused"), QuaverProperty.bufferedRanges: ranges,
                                     QuaverProperty.bufferingPercent: .int32(buffering)])
    }

    func testTheDownloadedPartIsDrawnApartFromThePlayedPart() {
        let line = status(position: 25, buffered: [(0, 60)]).liveLine(at: 0, barWidth: 20)
        XCTAssertTrue(line.contains("[#####=======--------]"), line)
    }

    func testAHoleInTheDownloadStaysUndrawn() {
        let line = status(position: 10, buffered: [(0, 30), (70, 100)]).liveLine(at: 0, barWidth: 10)
        XCTAssertTrue(line.contains("[#==----===]"), line)
    }

    func testWithoutBufferedRangesTheBarIsAsBefore() {
        XCTAssertTrue(status(position: 50, buffered: []).liveLine(at: 0, barWidth: 10).contains("[#####-----]"))
        let refilling = status(position: 50, buffered: [], buffering: 40).liveLine(at: 0, barWidth: 10)
        XCTAssertTrue(refilling.contains("[#####==---]"), refilling)
    }
}
