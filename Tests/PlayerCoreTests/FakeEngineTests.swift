import XCTest
import EventLoop
import PlayerCore
import TestSupport

/// The fake must keep the engine contract, or core tests prove nothing about the real engine.
final class FakeEngineTests: XCTestCase, AudioEngineDelegate {
    private var events: [AudioEngineEvent] = []
    private var engine: FakeEngine!
    private let a = EngineItem(id: TrackID(1), uri: "file:///a.flac")
    private let b = EngineItem(id: TrackID(2), uri: "file:///b.flac")

    func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) { events.append(event) }

    override func setUp() {
        engine = FakeEngine()
        engine.delegate = self
        engine.defaultMedia = FakeEngine.Media(duration: .seconds(2))
    }

    func testLoadReportsAsynchronouslyInStreamOrder() {
        var tags = TrackTags()
        tags.title = "A"
        engine.media[a.uri] = FakeEngine.Media(duration: .seconds(2), tags: tags)
        engine.load(a, at: .zero, playing: false)
        XCTAssertEqual(events, [], "never inside the call")
        engine.deliverEvents()
        XCTAssertEqual(events, [.trackStarted(a.id), .duration(a.id, .seconds(2)), .seekable(a.id, true), .tags(a.id, tags)])
        XCTAssertEqual(engine.position, .zero)
    }

    func testPositionFollowsClockTimesRateAndEndSwitchesToPreparedItem() {
        engine.timeScale = 10
        engine.setRate(2)
        engine.load(a, at: .zero, playing: true)
        engine.prepareNext(b)
        let started = EventLoop.monotonicMicroseconds
        XCTAssertTrue(EventLoop.main.run(until: { self.events.contains(.trackStarted(self.b.id)) }, timeout: 5))
        let elapsed = Double(EventLoop.monotonicMicroseconds - started) / 1_000_000
        XCTAssertGreaterThan(elapsed, 0.09, "2 s of media at rate 2 × scale 10 take 0.1 s")
        XCTAssertEqual(engine.current, b)
        XCTAssertNil(engine.prepared)
        XCTAssertFalse(events.contains(.endOfStream(a.id)))
    }

    func testEndWithoutPreparedItemIsEndOfStream() {
        engine.load(a, at: .zero, playing: true)
        engine.finishCurrentTrack()
        engine.deliverEvents()
        XCTAssertEqual(events.last, .endOfStream(a.id))
    }

    func testSeekCompletesAndStopForgetsItemAndDropsItsEvents() {
        engine.load(a, at: .zero, playing: false)
        engine.deliverEvents()
        engine.seek(to: .seconds(1), exact: true)
        engine.deliverEvents()
        XCTAssertEqual(events.last, .seekCompleted(.seconds(1)))
        XCTAssertEqual(engine.position, .seconds(1))
        events = []
        engine.load(b, at: .zero, playing: true)
        engine.stop()
        engine.deliverEvents()
        XCTAssertEqual(events, [])
        XCTAssertNil(engine.position)
    }

    func testFailingMediaReportsFailureOnly() {
        let broken = EngineError(.undecodable, "not audio")
        engine.media[a.uri] = FakeEngine.Media(failure: broken)
        engine.load(a, at: .zero, playing: true)
        engine.deliverEvents()
        XCTAssertEqual(events, [.failed(a.id, broken)])
        XCTAssertNil(engine.current)
    }
}
