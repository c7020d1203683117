@testable import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// The engine builds its pipeline at the first load: before it, every command acts as on an idle pipeline, and
/// what it sets reaches the pipeline the load builds.
final class FirstBuildTests: XCTestCase {
    func testCommandsBeforeTheFirstLoadBuildNothingAndTheirSettingsReachIt() throws {
        let fixtures = try Fixtures.shared()
        let reference = try record(fixtures.wav) { _ in }
        let quieter = try record(fixtures.wav) { engine in
            engine.play()
            engine.seek(to: .seconds(1), exact: true)
            engine.pause()
            engine.setRate(1.5)
            engine.setRate(1)
            engine.setCrossfade(seconds: 0)
            engine.setVolume(0.5)
            engine.setEqualizer(preAmp: -6, gains: Array(repeating: 0, count: 10))
            engine.playOnNewOutput(device: nil)
            engine.prepareNext(nil)
            engine.stop()
            XCTAssertNil(engine.pipeline, "a command built the pipeline")
            XCTAssertNil(engine.position)
        }
        XCTAssertEqual(quieter.count, reference.count, "the whole file, from its start")
        XCTAssertEqual(level(quieter) - level(reference), -12.04, accuracy: 0.1, "volume 0.5 and a pre-amp of -6 dB")
    }

    /// The file played into a WAV, with `before` done to the engine before its first load; its samples.
    private func record(_ file: URL, before: (GStreamerEngine) -> Void) throws -> [Int16] {
        let output = try TemporaryDirectory(prefix: "quaver-first-build")
        let written = output.url.appendingPathComponent("out.wav")
        let engine = GStreamerEngine(configuration: .init(sink: WAVSink.description(writingTo: written), applicationName: "Quaver tests"))
        let recorder = EventRecorder()
        engine.delegate = recorder
        before(engine)
        XCTAssertTrue(recorder.events.isEmpty, "\(recorder.events)")
        engine.load(EngineItem(id: TrackID(1), uri: file.absoluteString), at: .zero, playing: true)
        XCTAssertNotNil(engine.pipeline, "the load built the pipeline")
        recorder.wait(for: .endOfStream(TrackID(1)))
        engine.stop()
        return try wavSamples(written)
    }

    /// RMS level in dB relative to full scale.
    private func level(_ samples: [Int16]) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return 10 * log10(meanSquare / (32768.0 * 32768.0))
    }
}
