import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// What every AudioEngine must do, written against the protocol only, so the same tests run on the
/// GStreamer engine and on the core's fake: subclass, override `makeEngine()`, and re-declare the
/// tests as GStreamerEngineContractTests does (Linux XCTest does not run inherited test methods).
/// The files are the generated fixtures: 10 s tagged tones and a 4 s sweep cut in two.
class EngineContractTests: XCTestCase {
    var engine: AudioEngine!
    var recorder: EventRecorder!
    var fixtures: Fixtures!

    /// The engine under test; it must play in real time (positions are compared with wall time).
    func makeEngine() throws -> AudioEngine {
        throw XCTSkip("EngineContractTests is abstract: run a subclass")
    }

    override func setUpWithError() throws {
        engine = try makeEngine()
        fixtures = try Fixtures.shared()
        recorder = EventRecorder()
        engine.delegate = recorder
    }

    override func tearDown() {
        engine?.stop()
        engine = nil
    }

    /// Waits until the engine can join `next` without a gap. Playing starts only then in the tests of joins: an
    /// engine that checks the next file first (the real one prerolls it, and playbin's about-to-finish waits 0.5 s
    /// at most for that) ends the track instead of joining when the check is late, and under load it was late
    /// with 0.7 s and once even with 2.3 s of the track left. An engine that checks nothing is ready at once.
    func waitUntilReadyToJoin(_ next: EngineItem) {}

    func item(_ id: UInt64, _ url: URL) -> EngineItem {
        EngineItem(id: TrackID(id), uri: url.absoluteString)
    }

    func testLoadReportsTrackStartedDurationAndSeekable() {
        engine.load(item(1, fixtures.flac), at: .zero, playing: false)
        recorder.wait(for: .trackStarted(TrackID(1)))
        let duration = recorder.wait(for: "duration") { event -> Duration? in
            if case .duration(TrackID(1), let value?) = event { return value }
            return nil
        }
        XCTAssertEqual(seconds(duration), Double(Fixtures.toneSeconds), accuracy: 0.05)
        recorder.wait(for: .seekable(TrackID(1), true))
        XCTAssertEqual(seconds(engine.position), 0, accuracy: 0.05)
    }

    func testPlayAdvancesPositionAndPauseStopsIt() {
        engine.load(item(1, fixtures.flac), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 1.2)
        let playing = seconds(engine.position)
        XCTAssertGreaterThan(playing, 0.6, "position after 1.2 s of playing")
        XCTAssertLessThan(playing, 2.0)
        engine.pause()
        runLoop(for: 0.3)
        let paused = seconds(engine.position)
        runLoop(for: 0.7)
        XCTAssertEqual(seconds(engine.position), paused, accuracy: 0.05, "position moved while paused")
    }

    func testExactSeekLandsOnTheSample() {
        engine.load(item(1, fixtures.flac), at: .zero, playing: false)
        recorder.wait(for: .seekable(TrackID(1), true))
        engine.seek(to: .milliseconds(6_123), exact: true)
        let landed = recorder.waitForSeekCompleted()
        XCTAssertEqual(seconds(landed), 6.123, accuracy: 0.005)
        XCTAssertEqual(seconds(engine.position), 6.123, accuracy: 0.005)
    }

    func testFastSeekLandsNearby() {
        engine.load(item(1, fixtures.mp3), at: .zero, playing: true)
        recorder.wait(for: .seekable(TrackID(1), true))
        engine.seek(to: .seconds(4), exact: false)
        let landed = recorder.waitForSeekCompleted()
        XCTAssertEqual(seconds(landed), 4, accuracy: 0.5)
    }

    func testLoadAtPositionStartsThere() {
        engine.load(item(1, fixtures.flac), at: .seconds(7), playing: false)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 0.5)
        XCTAssertEqual(seconds(engine.position), 7, accuracy: 0.01)
    }

    func testRateTwoPlaysTwiceAsFast() {
        engine.load(item(1, fixtures.flac), at: .zero, playing: true)
        engine.setRate(2)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 0.5)
        let start = seconds(engine.position)
        runLoop(for: 3)
        let advanced = seconds(engine.position) - start
        // Playing in real time, rate 1 never gets ahead of the clock: more than 1.15 times the time run is rate 2 at
        // work. Nominally twice; a loaded machine held the pipeline back to 1.34 times (2.0 s in 1.5 s), which the
        // former bound of 1.5 times failed.
        XCTAssertGreaterThan(advanced, 3 * 1.15, "2x rate advanced \(advanced) s in 3 s")
        XCTAssertLessThan(advanced, 3 * 2.6)
    }

    func testPreparedNextStartsGaplesslyWithoutEndOfStream() {
        let (first, second) = fixtures.sweepHalvesFLAC
        engine.load(item(1, first), at: .zero, playing: false)
        engine.prepareNext(item(2, second))
        recorder.wait(for: .trackStarted(TrackID(1)))
        waitUntilReadyToJoin(item(2, second))
        engine.play()
        recorder.wait(for: .trackStarted(TrackID(2)))
        recorder.wait(for: .endOfStream(TrackID(2)))
        XCTAssertFalse(recorder.contains(.endOfStream(TrackID(1))))
        XCTAssertEqual(recorder.events.filter { $0 == .trackStarted(TrackID(1)) }.count, 1)
    }

    func testWithoutNextItemEndsWithEndOfStream() {
        engine.load(item(1, fixtures.flac), at: .milliseconds(9_300), playing: true)
        recorder.wait(for: .endOfStream(TrackID(1)))
    }

    func testSameURILoopsAsTheSameItem() {
        let track = item(1, fixtures.flac)
        engine.load(track, at: .milliseconds(8_000), playing: false)
        engine.prepareNext(track)
        recorder.wait(for: .trackStarted(TrackID(1)))
        waitUntilReadyToJoin(track)
        engine.play()
        let firstStart = recorder.events.count
        recorder.wait(for: "second trackStarted", after: firstStart) { $0 == .trackStarted(TrackID(1)) ? () : nil }
        XCTAssertFalse(recorder.contains(.endOfStream(TrackID(1))))
        runLoop(for: 0.3)
        XCTAssertLessThan(seconds(engine.position), 1.5, "the loop starts the track from its beginning")
        engine.seek(to: .milliseconds(9_500), exact: false)
        recorder.wait(for: .endOfStream(TrackID(1)))
    }

    func testMissingFileFailsThenAGoodFilePlays() {
        engine.load(item(1, fixtures.missing), at: .zero, playing: true)
        let error = recorder.wait(for: "failed") { event -> EngineError? in
            if case .failed(TrackID(1), let error) = event { return error }
            return nil
        }
        XCTAssertEqual(error?.kind, .notFound)
        engine.load(item(2, fixtures.flac), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(2)))
        runLoop(for: 0.5)
        XCTAssertGreaterThan(seconds(engine.position), 0.1)
    }
}

/// The contract on the real engine, playing in real time into a fake sink.
/// Linux XCTest discovers only the methods a class declares itself, not inherited ones: every
/// subclass re-declares the contract's tests (a missing one shows up in `swift test list`).
final class GStreamerEngineContractTests: EngineContractTests {
    override func makeEngine() throws -> AudioEngine {
        try GStreamerEngineFactory.make(sink: "fakesink sync=true")
    }

    /// The next file's check has ended: the engine has its read (`checkedRead`). The check's thread keeps it
    /// without waking the loop, hence the pump.
    override func waitUntilReadyToJoin(_ next: EngineItem) {
        let engine = engine as? GStreamerEngine
        XCTAssertTrue(pump(until: { engine?.checkedRead(of: next) != nil }, timeout: 30),
                      "the next file's check never ended")
    }

    /// A prepared file without audio fails its check (it prerolls, but the check's decoder finds no audio), so it
    /// is not handed over: the first track ends, and the core would load the next as an ordinary load. The check
    /// takes milliseconds; the second given it before playing on only keeps it from still running at the switch.
    /// Fails when the check lets the file through: it is handed over and fails inside playbin's switch.
    func testAPreparedFileWithoutAudioIsNotHandedOver() {
        engine.load(item(1, fixtures.flac), at: .milliseconds(8_500), playing: false)
        engine.prepareNext(item(2, fixtures.videoWithoutFrames))
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 1)
        engine.play()
        recorder.wait(for: .endOfStream(TrackID(1)))
        XCTAssertFalse(recorder.events.contains { if case .failed = $0 { return true } else { return false } }, "\(recorder.events)")
    }

    override func testLoadReportsTrackStartedDurationAndSeekable() { super.testLoadReportsTrackStartedDurationAndSeekable() }
    override func testPlayAdvancesPositionAndPauseStopsIt() { super.testPlayAdvancesPositionAndPauseStopsIt() }
    override func testExactSeekLandsOnTheSample() { super.testExactSeekLandsOnTheSample() }
    override func testFastSeekLandsNearby() { super.testFastSeekLandsNearby() }
    override func testLoadAtPositionStartsThere() { super.testLoadAtPositionStartsThere() }
    override func testRateTwoPlaysTwiceAsFast() { super.testRateTwoPlaysTwiceAsFast() }
    override func testPreparedNextStartsGaplesslyWithoutEndOfStream() { super.testPreparedNextStartsGaplesslyWithoutEndOfStream() }
    override func testWithoutNextItemEndsWithEndOfStream() { super.testWithoutNextItemEndsWithEndOfStream() }
    override func testSameURILoopsAsTheSameItem() { super.testSameURILoopsAsTheSameItem() }
    override func testMissingFileFailsThenAGoodFilePlays() { super.testMissingFileFailsThenAGoodFilePlays() }
}
