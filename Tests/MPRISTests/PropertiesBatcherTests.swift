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
        batcher.watch("org.mpris.MediaPlayer2.Player") { values }

        values["PlaybackStatus"] = .string("Playing")
        batcher.markChanged("org.mpris.MediaPlayer2.Player")
        values["Volume"] = .double(0.5)
        batcher.markChanged("org.mpris.MediaPlayer2.Player")
        batcher.invalidate("Tracks", in: "org.mpris.MediaPlayer2.TrackList")
        XCTAssertTrue(sent.isEmpty, "nothing before the turn ends")
        EventLoop.main.run(until: { sent.count == 2 }, timeout: 2)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent[0].0, "org.mpris.MediaPlayer2.Player")
        XCTAssertEqual(sent[0].1, ["PlaybackStatus": .string("Playing"), "Volume": .double(0.5)])
        XCTAssertEqual(sent[1].0, "org.mpris.MediaPlayer2.TrackList")
        XCTAssertEqual(sent[1].2, ["Tracks"])

        batcher.markChanged("org.mpris.MediaPlayer2.Player")  // nothing really changed
        EventLoop.main.run(until: { false }, timeout: 0.1)
        XCTAssertEqual(sent.count, 2, "no signal without a real change")
    }
}
