import PlayerCore
import TestSupport
import XCTest

/// The same contract on the core's FakeEngine, so the fake the core's tests rely on cannot drift from
/// what the GStreamer engine really does. The fake is told what the fixture files hold.
final class FakeEngineContractTests: EngineContractTests {
    override func makeEngine() throws -> AudioEngine {
        let fixtures = try Fixtures.shared()
        let engine = FakeEngine()
        let tone = FakeEngine.Media(duration: .seconds(Fixtures.toneSeconds))
        engine.media[fixtures.flac.absoluteString] = tone
        engine.media[fixtures.mp3.absoluteString] = tone
        let firstHalf = Duration.seconds(Double(Fixtures.firstHalfFrames) / Double(Fixtures.sampleRate))
        engine.media[fixtures.sweepHalvesFLAC.0.absoluteString] = .init(duration: firstHalf)
        engine.media[fixtures.sweepHalvesFLAC.1.absoluteString] = .init(duration: .seconds(4) - firstHalf)
        engine.media[fixtures.missing.absoluteString] = .init(failure: EngineError(.notFound, "Resource not found"))
        return engine
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
