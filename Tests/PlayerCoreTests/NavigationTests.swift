import XCTest
import PlayerCore
import TestSupport

final class NavigationTests: PlayerTestCase {
    func testNextWhilePlayingLoadsNextPlayingAndPreparesTheOneAfter() {
        let ids = startPlaying(3)
        player.next()
        XCTAssertEqual(engine.commands, [.load(item(ids[1]), at: .zero, playing: true), .prepareNext(item(ids[2]))])
        XCTAssertEqual(recorder.drain(), [.currentTrack(ids[1]), .state(.loading),
                                          .capabilities(capabilities(next: true, previous: true, seek: false))])
    }

    func testNextAndPreviousKeepPaused() {
        let ids = startPlaying(3)
        player.pause()
        player.next()
        XCTAssertEqual(player.status, .paused)
        player.previous()
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(engine.commands, [.pause,
                                         .load(item(ids[1]), at: .zero, playing: false), .prepareNext(item(ids[2])),
                                         .load(item(ids[0]), at: .zero, playing: false), .prepareNext(item(ids[1]))])
    }

    func testNextAndPreviousKeepStoppedWithoutTouchingEngine() {
        let ids = queue(3)
        player.next()
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[2])
        player.previous()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(engine.commands, [])
        player.play()
        XCTAssertEqual(engine.commands.first, .load(item(ids[1]), at: .zero, playing: true))
    }

    func testNextAtEndOfQueueDoesNothingWithoutLoop() {
        let ids = queue(2)
        player.next()
        _ = recorder.drain()
        XCTAssertFalse(player.canGoNext)
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(recorder.drain(), [])
    }

    func testPreviousAtStartOfQueueDoesNothingWithoutLoop() {
        let ids = startPlaying(2)
        XCTAssertFalse(player.canGoPrevious)
        player.previous()
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(engine.commands, [])
    }

    /// What MPRIS Previous does: with nothing before the current track, that track from its start.
    func testPreviousOrRestartRestartsTheFirstTrackAndOtherwiseGoesBack() {
        let ids = startPlaying(2)
        engine.elapse(.seconds(1))
        player.previousOrRestart()
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(engine.commands, [.seek(.zero, exact: true)])
        player.next()
        settle()
        forgetHistory()
        player.previousOrRestart()
        XCTAssertEqual(player.currentTrackID, ids[0], "within 3 s: the track before")
    }

    func testNextAndPreviousWrapWhenLoopingQueue() {
        let ids = queue(3)
        player.setLoopMode(.playlist)
        XCTAssertTrue(player.canGoPrevious)
        player.previous()
        XCTAssertEqual(player.currentTrackID, ids[2])
        XCTAssertTrue(player.canGoNext)
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[0])
    }

    func testPreviousAfterThreeSecondsRestartsCurrentTrack() {
        let ids = startPlaying(3)
        player.next()
        settle()
        engine.elapse(.seconds(4))
        forgetHistory()
        player.previous()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [.seek(.zero, exact: true)])
        XCTAssertEqual(recorder.drain(), [])  // Seeked only once the seek is done
        settle()
        XCTAssertEqual(recorder.drain(), [.seeked(.zero)])
    }

    func testPreviousWithinThreeSecondsGoesToPreviousTrack() {
        let ids = startPlaying(3)
        player.next()
        settle()
        engine.elapse(.seconds(2))
        player.previous()
        XCTAssertEqual(player.currentTrackID, ids[0])
    }

    func testGoToKeepsStatusAndIgnoresUnknownIds() {
        let ids = startPlaying(3)
        player.goTo(ids[2])
        XCTAssertEqual(player.currentTrackID, ids[2])
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(engine.commands, [.load(item(ids[2]), at: .zero, playing: true), .prepareNext(nil)])
        forgetHistory()
        player.goTo(TrackID(999))
        XCTAssertEqual(engine.commands, [])
        XCTAssertEqual(recorder.drain(), [])
    }

    func testGoToCurrentTrackRestartsIt() {
        let ids = startPlaying(2)
        engine.elapse(.seconds(30))
        player.goTo(ids[0])
        XCTAssertEqual(engine.commands, [.seek(.zero, exact: true)])
    }

    func testEndOfQueueStopsWithFirstTrackCurrent() {
        let ids = startPlaying(2)
        engine.finishCurrentTrack()  // gapless into the prepared second track
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        forgetHistory()
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(engine.commands, [.stop])
        // Whether a track can be sought is kept for the one loaded last only: here the second.
        XCTAssertEqual(recorder.drain(), [.currentTrack(ids[0]), .status(.stopped), .state(.stopped),
                                          .capabilities(capabilities(next: true, previous: false, seek: false))])
    }

    func testEndOfQueueWrapsWhenLoopingQueue() {
        let ids = startPlaying(2)
        player.setLoopMode(.playlist)
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(engine.prepared, item(ids[0]))
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(engine.current, item(ids[0]))
    }

    func testEndOfStreamWithoutPreparedItemLoadsNext() {
        let ids = startPlaying(3)
        engine.emit(.endOfStream(ids[0]))
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [.load(item(ids[1]), at: .zero, playing: true), .prepareNext(item(ids[2]))])
    }

    func testStaleEventsForReplacedItemsAreIgnored() {
        let ids = startPlaying(3)
        player.next()
        forgetHistory()
        engine.emit(.endOfStream(ids[0]))
        engine.emit(.trackStarted(ids[0]))
        engine.emit(.failed(ids[0], EngineError(.other, "late")))
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [])
        XCTAssertEqual(recorder.drain(), [])
    }
}
