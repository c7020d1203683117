import ControlAPI
import Foundation
import PlayerCore
import TestSupport
import XCTest

/// `quaver status --follow` prints a new line (stdout is a file here, not a terminal) on each change.
final class StatusFollowTests: XCTestCase {
    func testFollowPrintsChangesAndStopsOnSIGTERM() throws {
        let service = try QuaverService()
        service.engine.timeScale = 0
        let ids = service.player.add(try service.makeFiles(["a.flac"]))
        var tags = TrackTags()
        tags.title = "Song"
        service.player.updateTags(ids[0], tags)
        let follower = try service.startQuaver(["status", "--follow"])
        func lines() -> [String] { follower.standardOutput.split(separator: "\n").map(String.init) }
        func waitFor(_ prefix: String) -> Bool {
            pump(until: { lines().last?.hasPrefix(prefix) == true }, timeout: 10)
        }
        XCTAssertTrue(waitFor("■ Song  [------------------------]  0:00"), follower.standardOutput)
        service.player.play()
        XCTAssertTrue(waitFor("▶ Song  [------------------------]  0:00 / 3:00"), follower.standardOutput)
        service.player.setPosition(.seconds(90), of: ids[0])
        XCTAssertTrue(waitFor("▶ Song  [############------------]  1:30 / 3:00"), follower.standardOutput)
        service.player.pause()
        XCTAssertTrue(waitFor("⏸ Song"), follower.standardOutput)
        follower.send(SIGTERM)
        XCTAssertTrue(pump(until: { !follower.isRunning }, timeout: 10))
        XCTAssertEqual(follower.process.terminationStatus, 0, follower.standardError)
    }

    func testFollowExtrapolatesWhilePlaying() throws {
        let service = try QuaverService()
        service.player.add(try service.makeFiles(["a.flac"]))
        service.player.play()
        let follower = try service.startQuaver(["status", "--follow"])
        // The fake engine's clock runs at rate 1; the line must advance without any signal from the service.
        XCTAssertTrue(pump(until: { follower.standardOutput.contains("0:02 / 3:00") }, timeout: 15),
                      follower.standardOutput)
        follower.send(SIGINT)
        XCTAssertTrue(pump(until: { !follower.isRunning }, timeout: 10))
        XCTAssertEqual(follower.process.terminationStatus, 0)
    }

    func testFollowEndsWhenTheDaemonLeavesTheBus() throws {
        let service = try QuaverService()
        let follower = try service.startQuaver(["status", "--follow"])
        XCTAssertTrue(pump(until: { follower.standardOutput.contains("stopped") }, timeout: 10), follower.standardError)
        try service.connection.releaseName(ControlAPI.busName)
        XCTAssertTrue(pump(until: { !follower.isRunning }, timeout: 10))
        XCTAssertEqual(follower.process.terminationStatus, 0)
        XCTAssertTrue(follower.standardError.contains("quaverd left the bus"), follower.standardError)
    }
}
