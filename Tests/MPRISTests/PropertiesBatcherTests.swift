import ControlAPI
import DBus
import EventLoop
@testable import MPRIS
import XCTest

/// One PropertiesChanged per interface per loop turn, with real changes only.
final class PropertiesBatcherTests: XCTestCase {
    func testChangesOfOneTurnAreSentTogetherAndOnlyWhenValuesDiffer() {
        var values: [String: DBusValue] = ["PlaybackStatus": .string("Stopped"), "Volume": .double(1)]
        var sent: [(String, [String: DBusValue], [String])] = []
        let batcher = PropertiesBatcher { sent.append(($0, $1, $2)) }
        batcher.watch(ControlAPI.playerInterface) { values }

        values["PlaybackStatus"] = .string("Playing")
        batcher.markChanged(ControlAPI.playerInterface)
        values["Volume"] = .double(0.5)
        batcher.markChanged(ControlAPI.playerInterface)
        batcher.invalidate("Tracks", in: ControlAPI.trackListInterface)
        XCTAssertTrue(sent.isEmpty, "nothing before the turn ends")
        EventLoop.main.run(until: { sent.count == 2 }, timeout: 2)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent[0].0, ControlAPI.playerInterface)
        XCTAssertEqual(sent[0].1, ["PlaybackStatus": .string("Playing"), "Volume": .double(0.5)])
        XCTAssertEqual(sent[1].0, ControlAPI.trackListInterface)
        XCTAssertEqual(sent[1].2, ["Tracks"])

        batcher.markChanged(ControlAPI.playerInterface)  // nothing really changed
        EventLoop.main.run(until: { false }, timeout: 0.1)
        XCTAssertEqual(sent.count, 2, "no signal without a real change")
    }
}
