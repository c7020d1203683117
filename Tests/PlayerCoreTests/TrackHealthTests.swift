import XCTest
import PlayerCore
import TestSupport

/// The core's side of playback health: why nothing is heard, each entry's outcome, the stalls of the
/// current track and its downloaded ranges.
final class TrackHealthTests: PlayerTestCase {
    func testWaitingReasonFollowsLoadingBufferingAndTheUsersPause() {
        let ids = queue(2)
        XCTAssertEqual(player.waitingReason, .none)
        player.play()
        XCTAssertEqual(player.waitingReason, .loading)
        settle()
        XCTAssertEqual(player.waitingReason, .none)
        engine.emit(.buffering(percent: 30))
        XCTAssertEqual(player.waitingReason, .network)
        engine.emit(.buffering(percent: 100))
        XCTAssertEqual(player.waitingReason, .none)
        player.pause()
        XCTAssertEqual(player.waitingReason, .none, "the user paused: nothing is awaited")
        XCTAssertEqual(player.status(of: ids[0]), .ready)
        XCTAssertEqual(player.status(of: ids[1]), .unknown)
    }

    func testAnInterruptionAndALostOutputAreTold() {
        startPlaying(1)
        engine.emit(.interruption(began: true))
        XCTAssertEqual(player.waitingReason, .interruption)
        engine.emit(.interruption(began: false))
        XCTAssertEqual(player.waitingReason, .none)
        engine.emit(.outputLost(began: true))
        XCTAssertEqual(player.waitingReason, .outputGone)
        engine.emit(.outputLost(began: false))
        XCTAssertEqual(player.waitingReason, .none)
        XCTAssertEqual(player.status, .playing)
        player.beginInterruption(outputGone: true)  // the desktop saw the device we played on removed
        XCTAssertEqual(player.waitingReason, .outputGone)
        player.endInterruption()
        player.beginInterruption()
        XCTAssertEqual(player.waitingReason, .interruption, "a new interruption says what it is")
    }

    /// The refill before a track's first samples is loading; a drop after it started is a stall, counted
    /// for that track only.
    func testStallsAreCountedAfterTheStartPerTrack() {
        let ids = queue(2)
        player.play()
        engine.emit(.buffering(percent: 0))
        engine.emit(.buffering(percent: 100))
        settle()
        XCTAssertEqual(player.statistics()?.stalls, 0)
        for _ in 0..<2 {
            engine.emit(.buffering(percent: 40))
            engine.emit(.buffering(percent: 70))
            engine.emit(.buffering(percent: 100))
        }
        XCTAssertEqual(player.statistics()?.stalls, 2)
        player.next()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(player.statistics()?.stalls, 0)
    }

    func testAFailureIsKeptPerEntryUntilTheEntryLeaves() {
        let missing = EngineError(.notFound, "gone")
        engine.media[uri(1)] = FakeEngine.Media(failure: missing)
        let ids = queue(3)
        player.play()
        settle()
        XCTAssertEqual(player.status(of: ids[0]), .failed(missing))
        XCTAssertEqual(player.status(of: ids[1]), .ready)
        player.remove(ids[0])
        let again = player.add([uri(1)])
        XCTAssertEqual(player.status(of: again[0]), .unknown, "a new entry of the same file has not been tried")
        XCTAssertEqual(player.status(of: ids[0]), .unknown, "a removed entry is forgotten")
    }

    func testBufferedRangesBelongToTheLoadedTrackAndAreAnnounced() {
        let ids = startPlaying(2)
        let spans = [TimeSpan(start: .zero, end: .seconds(40))]
        engine.emit(.buffered(ids[0], spans))
        XCTAssertEqual(player.bufferedRanges, spans)
        XCTAssertEqual(recorder.drain(), [.bufferedRanges])
        engine.emit(.buffered(ids[0], spans))
        XCTAssertEqual(recorder.drain(), [], "the same ranges again change nothing")
        engine.emit(.buffered(ids[1], spans))
        XCTAssertEqual(recorder.drain(), [], "not the loaded track's")
        player.next()
        settle()
        XCTAssertEqual(player.bufferedRanges, [])
    }
}
