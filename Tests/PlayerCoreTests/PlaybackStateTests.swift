import XCTest
import PlayerCore
import TestSupport

final class PlaybackStateTests: PlayerTestCase {
    func testAddingToEmptyQueueMakesFirstTrackCurrentAndStopped() {
        let ids = queue(3)
        XCTAssertEqual(recorder.drain(), [
            .tracksAdded(ids, after: nil),
            .currentTrack(ids[0]),
            .capabilities(capabilities(next: true, previous: false, seek: false)),
        ])
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(player.state, .stopped)
        XCTAssertEqual(engine.commands, [])
    }

    func testPlayLoadsThenPlaysWhenEngineStartsTrack() {
        let ids = queue(3)
        _ = recorder.drain()
        player.play()
        XCTAssertEqual(engine.commands, [.load(item(ids[0]), at: .zero, playing: true), .prepareNext(item(ids[1]))])
        XCTAssertEqual(recorder.drain(), [.status(.playing), .state(.loading)])
        settle()
        XCTAssertEqual(player.state, .playing)
        XCTAssertEqual(recorder.drain(), [
            .state(.playing),
            .metadata(ids[0]),  // duration
            .metadata(ids[0]),  // seekable
            .capabilities(capabilities(next: true, previous: false, seek: true)),
        ])
        XCTAssertEqual(player.currentTrack?.duration, .seconds(180))
    }

    func testPlayWithEmptyQueueDoesNothing() {
        player.play()
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(engine.commands, [])
        XCTAssertEqual(recorder.drain(), [])
    }

    func testPauseThenPlayResumesWithoutReloading() {
        startPlaying(2)
        engine.elapse(.seconds(20))
        player.pause()
        XCTAssertEqual(player.status, .paused)
        player.play()
        XCTAssertEqual(engine.commands, [.pause, .play])
        XCTAssertEqual(recorder.drain(), [.status(.paused), .state(.paused), .status(.playing), .state(.playing)])
        XCTAssertEqual(player.position, .seconds(20))
    }

    func testStopThenPlayRestartsTrackFromBeginning() {
        let ids = startPlaying(2)
        engine.elapse(.seconds(20))
        player.stop()
        XCTAssertEqual(player.position, .zero)
        XCTAssertEqual(player.currentTrackID, ids[0])
        player.play()
        XCTAssertEqual(engine.commands, [.stop, .load(item(ids[0]), at: .zero, playing: true),
                                         .prepareNext(item(ids[1]))])
        XCTAssertEqual(recorder.drain(), [.status(.stopped), .state(.stopped), .status(.playing), .state(.loading)])
    }

    func testToggleStartsWhenStoppedPausesWhenPlayingResumesWhenPaused() {
        let ids = queue(2)
        player.togglePlayPause()
        XCTAssertEqual(player.status, .playing)
        settle()
        player.togglePlayPause()
        XCTAssertEqual(player.status, .paused)
        player.togglePlayPause()
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(engine.commands, [.load(item(ids[0]), at: .zero, playing: true), .prepareNext(item(ids[1])),
                                         .pause, .play])
    }

    func testRepeatedCommandsAnnounceNothing() {
        startPlaying(2)
        player.play()
        XCTAssertEqual(engine.commands, [])
        player.pause()
        _ = recorder.drain()
        player.pause()
        player.stop()
        _ = recorder.drain()
        player.stop()
        XCTAssertEqual(recorder.drain(), [])
        XCTAssertEqual(engine.commands, [.pause, .stop])
    }

    func testStatusNeverFlapsThroughTrackChangesAndSeeks() {
        startPlaying(3)
        player.next()
        player.seek(by: .seconds(5))  // ignored: not known seekable until the engine says
        settle()
        player.seek(by: .seconds(5))
        settle()
        player.previous()  // 5 s played: restarts the track
        settle()
        player.setPosition(.seconds(30), of: player.currentTrackID!)
        settle()
        let seen = recorder.drain()
        XCTAssertEqual(statusChanges(seen), [])
        XCTAssertEqual(seekedChanges(seen), [.seconds(5), .zero, .seconds(30)])
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(player.state, .playing)
    }

    func testBufferingPausesEngineAndResumesAtFullWithoutStatusChange() {
        startPlaying(2)
        engine.emit(.buffering(percent: 20))
        XCTAssertEqual(player.state, .buffering)
        XCTAssertEqual(player.status, .playing)
        engine.emit(.buffering(percent: 60))
        engine.emit(.buffering(percent: 100))
        XCTAssertEqual(engine.commands, [.pause, .play])
        XCTAssertEqual(recorder.drain(), [.state(.buffering), .buffering(percent: 20), .buffering(percent: 60),
                                         .state(.playing), .buffering(percent: 100)])
    }

    func testPlayWhileBufferingWaitsForFullBuffer() {
        startPlaying(2)
        player.pause()
        engine.emit(.buffering(percent: 10))
        player.play()
        XCTAssertEqual(player.state, .buffering)
        engine.emit(.buffering(percent: 100))
        XCTAssertEqual(engine.commands, [.pause, .play])
    }

    func testInterruptionPausesAndItsEndResumesOnlyWhatItPaused() {
        startPlaying(2)
        engine.emit(.interruption(began: true))
        XCTAssertEqual(player.status, .paused)
        engine.emit(.interruption(began: false))
        XCTAssertEqual(player.status, .playing)
        player.pause()
        engine.emit(.interruption(began: true))
        engine.emit(.interruption(began: false))
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(engine.commands, [.pause, .play, .pause])
    }

    /// A lost output pauses and its return resumes even when the sound server's requests are left to a
    /// policy that ignores them (a user who turned pause-on-cork off still has no sound without an output).
    func testALostOutputPausesAndItsReturnResumesWhateverTheCorkPolicy() {
        startPlaying(2)
        var requests: [Bool] = []
        player.soundServerRequestPolicy = { requests.append($0) }
        engine.emit(.outputLost(began: true))
        XCTAssertEqual(player.status, .paused)
        engine.emit(.outputLost(began: false))
        XCTAssertEqual(player.status, .playing)
        player.pause()
        engine.emit(.outputLost(began: true))
        engine.emit(.outputLost(began: false))
        XCTAssertEqual(player.status, .paused, "the user's pause during the outage stays")
        XCTAssertEqual(requests, [], "no cork policy was asked")
    }

    func testUserPauseDuringInterruptionIsNotUndoneByItsEnd() {
        startPlaying(2)
        engine.emit(.interruption(began: true))
        player.pause()
        engine.emit(.interruption(began: false))
        XCTAssertEqual(player.status, .paused)
    }

    func testSeekDuringInterruptionIsTheUserActing() {
        startPlaying(2)
        XCTAssertTrue(player.beginInterruption())
        XCTAssertTrue(player.isPausedByInterruption)
        player.seek(by: .seconds(5))
        XCTAssertFalse(player.isPausedByInterruption)
        XCTAssertFalse(player.endInterruption())
        XCTAssertEqual(player.status, .paused)
    }

    func testTrackChangeDuringInterruptionIsTheUserActing() {
        startPlaying(2)
        player.beginInterruption()
        player.next()
        XCTAssertFalse(player.endInterruption())
        XCTAssertEqual(player.status, .paused)
    }

    /// The end of an output's removal plays on a new output stream on that sink (the engine renews it), and a
    /// user's pause in between is kept like any other.
    func testAnOutputsReturnPlaysOnANewOutputUnlessTheUserPaused() {
        startPlaying(2)
        XCTAssertTrue(player.beginInterruption())
        let earlier = engine.commands.count
        XCTAssertTrue(player.endInterruption(onNewOutput: "headphones"))
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(Array(engine.commands.dropFirst(earlier)), [.playOnNewOutput(device: "headphones")])
        XCTAssertTrue(player.beginInterruption())
        player.pause()
        XCTAssertFalse(player.endInterruption(onNewOutput: "headphones"))
        XCTAssertEqual(player.status, .paused)
    }

    func testInterruptionWhilePausedOrStoppedDoesNothing() {
        startPlaying(2)
        player.pause()
        XCTAssertFalse(player.beginInterruption())
        player.stop()
        XCTAssertFalse(player.beginInterruption())
        XCTAssertFalse(player.endInterruption())
        XCTAssertEqual(player.status, .stopped)
    }
}
