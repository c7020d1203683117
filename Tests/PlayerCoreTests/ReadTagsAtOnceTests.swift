import PlayerCore
import TestSupport
import XCTest

/// `readTagsAtOnce`: a track's tags are read as it becomes current, within the change that made it current.
final class ReadTagsAtOnceTests: PlayerTestCase {
    private var asked: [TrackID] = []

    override func setUp() {
        super.setUp()
        player.readTagsAtOnce = { [unowned self] item in
            asked.append(item.id)
            var tags = TrackTags()
            tags.title = "Title of \(item.uri)"
            tags.artists = ["Read At Once"]
            return (tags, .seconds(42))
        }
    }

    func testTrackBecomingCurrentIsReadBeforeObserversHear() {
        let ids = queue(3)
        XCTAssertEqual(asked, [ids[0]], "the first track became current when queued")
        _ = recorder.drain()
        player.next()
        XCTAssertEqual(asked, [ids[0], ids[1]])
        let changes = recorder.drain()
        XCTAssertTrue(changes.contains(.currentTrack(ids[1])) && changes.contains(.metadata(ids[1])), "\(changes)")
        let current = player.currentTrack
        XCTAssertEqual(current?.tags.title, "Title of \(uri(2))")
        XCTAssertEqual(current?.tags.artists, ["Read At Once"])
        XCTAssertEqual(current?.duration, .seconds(42))
    }

    func testEachQueueEntryIsReadOnce() {
        let ids = queue(2)
        player.next()
        player.previous()
        player.goTo(ids[1])
        XCTAssertEqual(asked, [ids[0], ids[1]])
        player.remove(ids[1])
        let again = player.add([uri(2)])
        player.goTo(again[0])
        XCTAssertEqual(asked, [ids[0], ids[1], again[0]], "a new entry for the same file is read again")
    }

    func testGaplessSwitchReadsTheNewTrack() {
        let ids = startPlaying(2)
        asked = []
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(asked, [ids[1]])
    }

    func testNothingReadLeavesTheTrackAsItWas() {
        player.readTagsAtOnce = { _ in nil }
        queue(1)
        XCTAssertNil(player.currentTrack?.tags.title)
        XCTAssertEqual(player.currentTrack?.title, "1", "the file name")
    }

    func testALengthTheEngineReportedIsKept() {
        let ids = startPlaying(2)
        engine.emit(.duration(ids[0], .seconds(7)))
        player.readTagsAtOnce = { _ in (TrackTags(), .seconds(99)) }
        player.remove(ids[1])
        let added = player.add([uri(5)])
        player.next()
        XCTAssertEqual(player.currentTrackID, added[0])
        XCTAssertEqual(player.currentTrack?.duration, .seconds(99), "an unknown length is filled in")
        player.previous()
        XCTAssertEqual(player.track(ids[0])?.duration, .seconds(7), "read before: not asked again")
    }
}
