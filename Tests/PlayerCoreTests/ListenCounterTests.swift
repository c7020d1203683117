import XCTest
import PlayerCore
import TestSupport

/// What counts as a listen and a skip, on the fake engine's clock (tracks are 180 s unless a test says otherwise).
final class ListenCounterTests: PlayerTestCase {
    private var events: [ListenCounter.Event] = []
    private var counter: ListenCounter!

    override func setUp() {
        super.setUp()
        events = []
        counter = ListenCounter(player: player, now: { 1_700_000_000 }) { [unowned self] in events.append($0) }
    }

    /// Plays on by `seconds`, sampled once a second as the daemon does.
    private func play(_ seconds: Int) {
        for _ in 0..<seconds {
            engine.elapse(.seconds(1))
            settle()
            counter.sample()
        }
    }

    private var names: [String] {
        events.map { event in
            switch event {
            case .started(let play): return "started \(play.track.uri.suffix(6))"
            case .listened(let play): return "listened \(play.track.uri.suffix(6))"
            case .skipped(let play): return "skipped \(play.track.uri.suffix(6))"
            }
        }
    }

    func testHalfTheTrackCountsOnceAndTheStartIsReported() {
        startPlaying(2)
        XCTAssertEqual(names, ["started 1.flac"])
        XCTAssertEqual(counter.timeUntilListen, .seconds(90))
        play(89)
        XCTAssertEqual(names, ["started 1.flac"])
        play(1)
        XCTAssertEqual(names, ["started 1.flac", "listened 1.flac"])
        guard case .listened(let listen) = events.last else { return XCTFail() }
        XCTAssertEqual(listen.startedAt, 1_700_000_000)
        XCTAssertNil(counter.timeUntilListen)
        play(30)
        XCTAssertEqual(events.count, 2, "once per play")
    }

    func testFourMinutesCountForALongTrackAndForAStream() {
        engine.defaultMedia.duration = .seconds(3600)
        startPlaying(1)
        play(239)
        XCTAssertEqual(events.count, 1)
        play(1)
        XCTAssertEqual(names.last, "listened 1.flac")
        XCTAssertEqual(ListenCounter.threshold(for: nil), .seconds(240))
    }

    func testSeekingToTheMiddleIsNotListening() {
        startPlaying(1)
        play(5)
        player.seek(by: .seconds(100))
        settle()
        play(5)
        XCTAssertEqual(names, ["started 1.flac"])
        XCTAssertEqual(counter.timeUntilListen, .seconds(80))
    }

    func testLeavingBeforeThirtySecondsIsASkipAndAfterIsNot() {
        startPlaying(3)
        play(10)
        player.next()
        settle()
        play(40)
        player.next()
        settle()
        XCTAssertEqual(names, ["started 1.flac", "skipped 1.flac", "started 2.flac", "started 3.flac"])
    }

    func testAShortTrackThatEndsIsNeitherSkippedNorMissed() {
        engine.defaultMedia.duration = .seconds(20)
        startPlaying(2)
        play(20)
        settle()
        counter.sample()
        XCTAssertEqual(names, ["started 1.flac", "listened 1.flac", "started 2.flac"])
    }

    func testPausingStopsTheCountAndALoopedTrackCountsAgain() {
        startPlaying(1)
        player.pause()
        settle()
        engine.elapse(.seconds(60))
        counter.sample()
        XCTAssertEqual(names, ["started 1.flac"], "nothing counts while paused")
        player.play()
        settle()
        player.setLoopMode(.track)
        play(89)
        XCTAssertEqual(names, ["started 1.flac"], "the minute moved while paused did not count")
        play(1)
        XCTAssertEqual(names.last, "listened 1.flac")
        play(31)
        XCTAssertEqual(names, ["started 1.flac", "listened 1.flac", "started 1.flac"], "the loop starts a new play")
    }
}
