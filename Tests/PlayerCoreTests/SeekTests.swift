import XCTest
import PlayerCore
import TestSupport

final class SeekTests: PlayerTestCase {
    func testSeekIsRelativeAndSeekedFollowsCompletion() {
        startPlaying(2)
        engine.elapse(.seconds(10))
        player.seek(by: .seconds(15))
        XCTAssertEqual(engine.commands, [.seek(.seconds(25), exact: true)])
        XCTAssertEqual(player.position, .seconds(25))  // the target, while the seek is in flight
        XCTAssertEqual(recorder.drain(), [])
        settle()
        XCTAssertEqual(recorder.drain(), [.seeked(.seconds(25))])
    }

    func testSeekBeforeStartClampsToZero() {
        startPlaying(2)
        engine.elapse(.seconds(10))
        player.seek(by: .seconds(-30))
        XCTAssertEqual(engine.commands, [.seek(.zero, exact: true)])
    }

    func testSeekPastEndActsAsNext() {
        let ids = startPlaying(2)
        engine.elapse(.seconds(170))
        player.seek(by: .seconds(45))
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [.load(item(ids[1]), at: .zero, playing: true), .prepareNext(nil)])
    }

    func testSeekPastEndOfLastTrackStops() {
        let ids = startPlaying(1)
        player.seek(by: .seconds(200))
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(engine.commands, [.stop])
    }

    func testSeekNeedsSeekableLoadedTrack() {
        engine.media[uri(1)] = FakeEngine.Media(duration: nil, seekable: false)
        queue(1)
        player.seek(by: .seconds(5))  // stopped
        player.play()
        settle()
        XCTAssertFalse(player.canSeek)
        player.seek(by: .seconds(5))
        player.setPosition(.seconds(5), of: player.currentTrackID!)
        XCTAssertFalse(engine.commands.contains { if case .seek = $0 { return true } else { return false } })
    }

    func testSetPositionIsAbsoluteForCurrentTrack() {
        let ids = startPlaying(2)
        engine.elapse(.seconds(50))
        player.setPosition(.seconds(12), of: ids[0])
        player.setPosition(.seconds(180), of: ids[0])  // exactly the length is allowed
        XCTAssertEqual(engine.commands, [.seek(.seconds(12), exact: true), .seek(.seconds(180), exact: true)])
    }

    func testSetPositionWithStaleIdNegativeOrPastLengthDoesNothing() {
        let ids = startPlaying(2)
        player.setPosition(.seconds(10), of: ids[1])
        player.setPosition(.seconds(10), of: TrackID(999))
        player.setPosition(.seconds(-1), of: ids[0])
        player.setPosition(.seconds(181), of: ids[0])
        XCTAssertEqual(engine.commands, [])
        settle()
        XCTAssertEqual(recorder.drain(), [])
    }

    func testNetworkStreamsSeekToKeyUnits() {
        engine.defaultMedia = FakeEngine.Media(duration: .seconds(60))
        player.add(["http://example.invalid/a.mp3"])
        player.play()
        settle()
        forgetHistory()
        player.seek(by: .seconds(5))
        XCTAssertEqual(engine.commands, [.seek(.seconds(5), exact: false)])
    }

    func testUnrequestedSeekCompletionIsNotAnnounced() {
        startPlaying(1)
        engine.emit(.seekCompleted(.seconds(3)))
        XCTAssertEqual(recorder.drain(), [])
    }
}

final class SettingsTests: PlayerTestCase {
    func testRateSetterValidatesAndAnnouncesRealChanges() throws {
        try player.setRate(1.5)
        try player.setRate(1.5)
        XCTAssertThrowsError(try player.setRate(0.4)) { XCTAssertEqual($0 as? PlayerError, .invalidRate(0.4)) }
        XCTAssertThrowsError(try player.setRate(2.01))
        XCTAssertThrowsError(try player.setRate(.nan)) { XCTAssertEqual($0 as? PlayerError, .invalidRate(.nan)) }
        XCTAssertThrowsError(try player.setRate(0))
        XCTAssertEqual(player.rate, 1.5)
        XCTAssertEqual(engine.commands, [.setRate(1.5)])
        XCTAssertEqual(recorder.drain(), [.rate(1.5)])
    }

    func testClampingRateSetterClampsAndIgnoresNaN() {
        player.setRate(clamping: 5)
        XCTAssertEqual(player.rate, 2)
        player.setRate(clamping: 0.1)
        XCTAssertEqual(player.rate, 0.5)
        player.setRate(clamping: .nan)
        XCTAssertEqual(player.rate, 0.5)
        XCTAssertEqual(engine.commands, [.setRate(2), .setRate(0.5)])
    }

    func testVolumeClampsOutOfRangeAndRejectsNaN() throws {
        try player.setVolume(0.25)
        try player.setVolume(-3)
        XCTAssertEqual(player.volume, 0)
        try player.setVolume(7)
        XCTAssertEqual(player.volume, 1)
        XCTAssertThrowsError(try player.setVolume(.nan)) { XCTAssertEqual($0 as? PlayerError, .invalidVolume(.nan)) }
        try player.setVolume(1)
        XCTAssertEqual(engine.commands, [.setVolume(0.25), .setVolume(0), .setVolume(1)])
        XCTAssertEqual(recorder.drain(), [.volume(0.25), .volume(0), .volume(1)])
    }

    func testLoopModeChangesCapabilitiesAndPreparedItem() {
        let ids = startPlaying(2)
        player.next()
        settle()
        forgetHistory()
        player.setLoopMode(.playlist)
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[0]))])
        XCTAssertEqual(recorder.drain(), [.capabilities(capabilities(next: true, previous: true, seek: true)),
                                          .loopMode(.playlist)])
        player.setLoopMode(.track)
        player.setLoopMode(.track)
        XCTAssertEqual(engine.commands.last, .prepareNext(item(ids[1])))
        player.setLoopMode(.none)
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[0])), .prepareNext(item(ids[1])), .prepareNext(nil)])
    }

    func testLoopTrackRepeatsGaplesslyAndAnnouncesSeekedZero() {
        let ids = startPlaying(2)
        player.setLoopMode(.track)
        XCTAssertEqual(engine.prepared, item(ids[0]))
        engine.elapse(.seconds(60))
        forgetHistory()
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(player.position, .zero)
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[0]))])  // told again: the engine used it up
        XCTAssertEqual(recorder.drain(), [.seeked(.zero)])
    }

    func testLoopTrackWithoutPreparedItemReloadsAndAnnouncesSeekedZero() {
        let ids = startPlaying(2)
        player.setLoopMode(.track)
        forgetHistory()
        engine.emit(.endOfStream(ids[0]))
        XCTAssertEqual(engine.commands, [.load(item(ids[0]), at: .zero, playing: true), .prepareNext(item(ids[0]))])
        settle()
        XCTAssertEqual(seekedChanges(recorder.drain()), [.zero])
    }

    func testNextStillMovesOnWhenLoopingTrack() {
        let ids = startPlaying(2)
        player.setLoopMode(.track)
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[1])
    }
}
