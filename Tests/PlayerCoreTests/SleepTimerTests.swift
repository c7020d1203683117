import XCTest
import PlayerCore
import TestSupport

/// A wall clock moved by hand: scheduled actions run as it passes their time, in order.
final class ManualClock: SleepClock {
    private final class Token {}
    private var pending: [(at: Duration, token: Token, action: () -> Void)] = []
    var now: Duration = .seconds(1_800_000_000)

    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> AnyObject {
        let token = Token()
        pending.append((now + delay, token, action))
        return token
    }

    /// Moves the clock on by `time`, running what falls due on the way (a released token cancels).
    func advance(by time: Duration) {
        let target = now + time
        while true {
            pending.removeAll { entry in !isKnownUniquelyReferencedAllowingOurs(entry.token) }
            guard let next = pending.enumerated().filter({ $0.element.at <= target }).min(by: { $0.element.at < $1.element.at })
            else { break }
            pending.remove(at: next.offset)
            now = max(now, next.element.at)
            next.element.action()
        }
        now = target
    }

    /// Moves the clock on by `time` without running anything, as for a loop held up: what fell due meanwhile runs
    /// at the next `advance`, late.
    func hold(for time: Duration) {
        now += time
    }

    /// Whether anything besides this clock still holds `token` (the timer wants it run).
    private func isKnownUniquelyReferencedAllowingOurs(_ token: Token) -> Bool {
        var token = token
        return !isKnownUniquelyReferenced(&token)
    }
}

final class SleepTimerTests: PlayerTestCase {
    var clock: ManualClock!
    var timer: SleepTimer!
    var reported: [SleepMode] = []

    override func setUp() {
        super.setUp()
        clock = ManualClock()
        timer = SleepTimer(player: player, clock: clock, fade: .seconds(10))
        timer.observe { [unowned self] in self.reported.append($0) }
    }

    /// Plays `seconds` of media in steps of 0.1 s, the clock keeping pace, as the daemon would live them.
    private func play(_ seconds: Double) {
        for _ in 0..<Int((seconds * 10).rounded()) {
            engine.elapse(.milliseconds(100))
            clock.advance(by: .milliseconds(100))
        }
        settle()
    }

    private var pauses: Int { engine.commands.filter { $0 == .pause }.count }

    func testATimedSleepFadesOutPausesAndRestoresTheVolume() throws {
        let ids = startPlaying(3)
        try player.setVolume(0.8)
        timer.set(.after(.seconds(30 * 60)))
        XCTAssertEqual(timer.remaining, .seconds(30 * 60))
        clock.advance(by: .seconds(30 * 60 - 11))
        XCTAssertEqual(engine.volume, 0.8, accuracy: 1e-9, "no fade before the last 10 s")
        clock.advance(by: .seconds(6))
        XCTAssertEqual(engine.volume, 0.8 * 0.5, accuracy: 0.02, "half way through the fade")
        XCTAssertEqual(player.status, .playing)
        let position = player.position
        clock.advance(by: .seconds(5))
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(pauses, 1)
        XCTAssertEqual(engine.volume, 0.8, accuracy: 1e-9, "restored for next time")
        XCTAssertEqual(player.volume, 0.8, "Volume itself never moved")
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(player.position, position)
        XCTAssertEqual(timer.mode, .off)
        XCTAssertEqual(reported.last, .off)
        XCTAssertGreaterThanOrEqual(reported.count, 30, "set, once a minute, and off")
    }

    func testACancelledTimerDoesNothing() {
        startPlaying(2)
        timer.set(.after(.seconds(60)))
        clock.advance(by: .seconds(55))
        XCTAssertLessThan(engine.volume, 1)
        timer.set(.off)
        XCTAssertEqual(engine.volume, 1, "the fade is undone at once")
        clock.advance(by: .seconds(600))
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(pauses, 0)
    }

    func testAUserPauseInBetweenNeitherCancelsNorResumes() {
        startPlaying(2)
        timer.set(.after(.seconds(30 * 60)))
        clock.advance(by: .seconds(10 * 60))
        player.pause()
        clock.advance(by: .seconds(10 * 60))
        player.play()
        settle()
        clock.advance(by: .seconds(10 * 60))
        XCTAssertEqual(player.status, .paused, "the timer still ends the listening")
        XCTAssertEqual(timer.mode, .off)

        timer.set(.after(.seconds(60)))
        clock.advance(by: .seconds(55))
        player.pause()
        XCTAssertEqual(engine.volume, 1, "a pause during the fade restores the volume at once")
        clock.advance(by: .seconds(10))
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(timer.mode, .off, "it expired while paused: nothing to do, nothing resumed")
    }

    func testEndOfTrackPausesAtTheGaplessSwitchWithTheNextTrackCurrent() {
        let ids = startPlaying(3)
        timer.set(.endOfTrack)
        XCTAssertEqual(timer.mode, .endOfTrack(ids[0]))
        play(175)
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02)
        XCTAssertEqual(player.status, .playing)
        play(6)  // past the end: the fake engine switches to the prepared track
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(engine.volume, 1)
        XCTAssertEqual(timer.mode, .off)
        XCTAssertFalse(loads.contains { if case .load(let item, _, _) = $0 { return item.id == ids[1] } else { return false } },
                       "the switch was gapless: no reload")
    }

    func testNextMovesEndOfTrackToTheChosenTrack() {
        let ids = startPlaying(3)
        timer.set(.endOfTrack)
        play(10)
        player.next()
        settle()
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(timer.mode, .endOfTrack(ids[1]))
    }

    func testEndOfAlbumPlaysTheAlbumOutThenPauses() {
        func entry(_ number: Int, album: String) -> QueueEntry {
            var tags = TrackTags()
            tags.album = album
            tags.artists = ["Band"]
            return QueueEntry(uri: uri(number), tags: tags, duration: .seconds(20))
        }
        engine.defaultMedia.duration = .seconds(20)
        player.restore(PlayerSession(tracks: [entry(1, album: "A"), entry(2, album: "A"), entry(3, album: "B")],
                                     currentIndex: 0, status: .playing))
        settle()
        let ids = player.trackIDs
        timer.set(.endOfAlbum)
        play(21)
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(player.status, .playing, "the album goes on")
        XCTAssertEqual(engine.volume, 1, "no dip between two tracks of the album")
        XCTAssertEqual(timer.mode, .endOfAlbum(ids[1]))
        play(14)  // 1 s of track 2 had played
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02, "fading before the other album")
        play(6)
        XCTAssertEqual(player.currentTrackID, ids[2])
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(engine.volume, 1)
    }

    func testEndOfTrackOnTheLastTrackEndsWithTheQueue() {
        startPlaying(1)
        timer.set(.endOfTrack)
        play(181)
        XCTAssertEqual(player.status, .stopped)
        XCTAssertEqual(timer.mode, .off)
        XCTAssertEqual(engine.volume, 1)
    }

    func testARestoredDeadlineAlreadyPastIsDropped() {
        startPlaying(1)
        timer.restore(.at(clock.now - .seconds(1)))
        XCTAssertEqual(timer.mode, .off)
        timer.restore(.at(clock.now + .seconds(100)))
        XCTAssertEqual(timer.remaining, .seconds(100))
    }
}
