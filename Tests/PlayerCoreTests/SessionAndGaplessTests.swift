import XCTest
import PlayerCore
import TestSupport

final class SessionTests: PlayerTestCase {
    private func savedSession(status: PlaybackStatus = .paused) -> PlayerSession {
        var tags = TrackTags()
        tags.title = "Known"
        return PlayerSession(tracks: [QueueEntry(uri: uri(1)), QueueEntry(uri: uri(2), tags: tags, duration: .seconds(90)),
                                      QueueEntry(uri: uri(3))],
                             currentIndex: 1, position: .seconds(42), status: status, volume: 0.5, rate: 1.25,
                             loopMode: .playlist, shuffle: false)
    }

    func testRestoreLoadsPausedAtPosition() {
        player.restore(savedSession())
        let ids = player.tracks.map(\.id)
        XCTAssertEqual(engine.commands, [.setVolume(0.5), .setRate(1.25),
                                         .load(item(ids[1]), at: .seconds(42), playing: false),
                                         .prepareNext(item(ids[2]))])
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(player.position, .seconds(42))
        XCTAssertEqual(player.currentTrack?.title, "Known")
        XCTAssertEqual(player.loopMode, .playlist)
        settle()
        XCTAssertEqual(player.state, .paused)
        player.play()
        XCTAssertEqual(engine.commands.last, .play)
    }

    func testRestoreStoppedLoadsNothingAndSnapshotRoundTrips() {
        player.restore(savedSession(status: .stopped))
        XCTAssertEqual(engine.commands, [.setVolume(0.5), .setRate(1.25)])
        var expected = savedSession(status: .stopped)
        expected.position = .zero
        XCTAssertEqual(player.session, expected)
    }

    func testRestoredPositionPastKnownLengthStartsOver() {
        var session = savedSession()
        session.position = .seconds(500)
        player.restore(session)
        XCTAssertEqual(loads,
                       [.load(item(player.tracks[1].id), at: .zero, playing: false)])
    }

    func testRestoreAnnouncesNewQueueAndSettings() {
        player.restore(savedSession())
        let seen = recorder.drain()
        for change: PlayerChange in [.queueReplaced, .volume(0.5), .rate(1.25), .loopMode(.playlist), .status(.paused),
                                     .currentTrack(player.tracks[1].id)] {
            XCTAssertTrue(seen.contains(change), "\(change) missing from \(seen)")
        }
    }
}

final class GaplessTests: PlayerTestCase {
    func testCurrentTrackSwitchesWhenPreparedItemStarts() {
        let ids = startPlaying(3)
        XCTAssertEqual(engine.prepared, item(ids[1]))
        engine.finishCurrentTrack()
        XCTAssertEqual(player.currentTrackID, ids[0], "still the old track until the new one is heard")
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[2]))], "no reload, and the next one prepared")
        let seen = recorder.drain()
        XCTAssertEqual(seen.first, .currentTrack(ids[1]))
        XCTAssertEqual(statusChanges(seen), [])
        XCTAssertEqual(seekedChanges(seen), [])
        XCTAssertEqual(player.state, .playing)
    }

    func testWithoutGaplessTheNextTrackIsLoadedAfterTheEnd() {
        let ids = startPlaying(3)
        player.joinsTracksGaplessly = false
        XCTAssertEqual(engine.commands, [.prepareNext(nil)], "the prepared track is taken back")
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands.dropFirst(), [.load(item(ids[1]), at: .zero, playing: true), .prepareNext(nil)])
        XCTAssertEqual(player.state, .playing)
        player.joinsTracksGaplessly = true
        XCTAssertEqual(engine.commands.last, .prepareNext(item(ids[2])))
    }

    func testSwitchToAnEarlierPreparedItemIsFollowed() {
        let ids = startPlaying(3)
        player.remove(ids[1])  // the engine may already have switched to it: its event is on its way
        engine.emit(.trackStarted(ids[1]))
        XCTAssertEqual(player.currentTrackID, ids[2], "the removed track stands for the end of the current one")
        XCTAssertEqual(engine.commands.suffix(2), [.load(item(ids[2]), at: .zero, playing: true), .prepareNext(nil)])
    }

    func testObserversCanReadNewStateDuringNotification() {
        final class Reader: PlayerObserver {
            weak var player: Player?
            var currentSeen: [TrackID?] = []
            func playerDidChange(_ change: PlayerChange) {
                if case .currentTrack = change { currentSeen.append(player?.currentTrack?.id) }
            }
        }
        let reader = Reader()
        reader.player = player
        player.addObserver(reader)
        let ids = startPlaying(2)
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(reader.currentSeen, [ids[0], ids[1]])
    }
}
