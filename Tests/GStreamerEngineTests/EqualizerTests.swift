import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// The equaliser through the real engine into a WAV file: −6 dB on the 1 kHz band lowers a 1 kHz tone by
/// 6 dB, set before the track loads or while it plays (then with no sample lost or repeated), and a flat
/// equaliser after a change gives back the source's samples exactly.
final class EqualizerTests: XCTestCase {
    static var folder: TemporaryDirectory!
    /// 3 s of a 1 kHz sine at 0.25 of full scale, 16-bit stereo, as WAV and FLAC.
    static var toneWAV: URL!
    static var toneFLAC: URL!
    static let flat = Array(repeating: 0.0, count: 10)
    /// −6 dB on the 1 kHz band (the sixth), nothing else.
    static let minusSixAt1k = [0, 0, 0, 0, 0, -6, 0, 0, 0, 0.0]

    override class func setUp() {
        do {
            folder = try TemporaryDirectory(prefix: "quaver-equalizer")
            toneWAV = folder.url.appendingPathComponent("tone.wav")
            toneFLAC = folder.url.appendingPathComponent("tone.flac")
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", toneWAV.path,
                                     "synth", "3", "sine", "1000", "vol", "0.25"])
            try Fixtures.run("flac", ["-s", "-f", "-o", toneFLAC.path, toneWAV.path])
        } catch {
            XCTFail("fixtures: \(error)")
        }
    }

    override class func tearDown() { folder = nil }

    /// Plays the tone once and returns the recorded samples; `configure` runs before the load, `whilePlaying`
    /// once the track has started (the sink then keeps to real time, so that it runs while the track plays).
    func record(configure: (GStreamerEngine) -> Void = { _ in }, whilePlaying: ((GStreamerEngine) -> Void)? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> [Int16] {
        let output = try TemporaryDirectory(prefix: "quaver-equalizer-out")
        let written = output.url.appendingPathComponent("out.wav")
        let sink = whilePlaying == nil ? WAVSink.description(writingTo: written) : WAVSink.realTimeDescription(writingTo: written)
        let engine = try GStreamerEngineFactory.make(sink: sink)
        let recorder = EventRecorder()
        engine.delegate = recorder
        configure(engine)
        engine.load(EngineItem(id: TrackID(1), uri: Self.toneFLAC.absoluteString), at: .zero, playing: true)
        if let whilePlaying {
            recorder.wait(for: .trackStarted(TrackID(1)), file: file, line: line)
            whilePlaying(engine)
        }
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 30, file: file, line: line)
        engine.stop()
        return try wavSamples(written)
    }

    /// RMS level in dB relative to full scale.
    func level(_ samples: ArraySlice<Int16>) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return 10 * log10(meanSquare / (32768.0 * 32768.0))
    }

    func testMinusSixDecibelsOnTheToneBandLowersItBySix() throws {
        let source = try wavSamples(Self.toneWAV)
        let samples = try record { $0.setEqualizer(preAmp: 0, gains: Self.minusSixAt1k) }
        XCTAssertEqual(samples.count, source.count)
        // Past the filter's first milliseconds, where it settles.
        let change = level(samples[8_820...]) - level(source[8_820...])
        print("equaliser: 1 kHz tone with -6 dB on the 1k band measured at \(String(format: "%.2f", change)) dB")
        XCTAssertEqual(change, -6, accuracy: 0.5)
    }

    func testThePreAmpLowersEverything() throws {
        let source = try wavSamples(Self.toneWAV)
        let samples = try record { $0.setEqualizer(preAmp: -3, gains: Self.flat) }
        XCTAssertEqual(level(samples[...]) - level(source[...]), -3, accuracy: 0.05)
    }

    func testAChangeWhilePlayingIsHeardWithoutAGap() throws {
        let source = try wavSamples(Self.toneWAV)
        let samples = try record(whilePlaying: { $0.setEqualizer(preAmp: 0, gains: Self.minusSixAt1k) })
        XCTAssertEqual(samples.count, source.count, "no sample lost or repeated")
        // The real-time sink lets the file run at most about a second ahead: the last second follows the change.
        let lastSecond = samples.count - 88_200
        XCTAssertEqual(level(samples[lastSecond...]) - level(source[lastSecond...]), -6, accuracy: 0.5)
    }

    func testFlatAfterAChangeIsBitExact() throws {
        let source = try wavSamples(Self.toneWAV)
        let samples = try record {
            $0.setEqualizer(preAmp: -6, gains: Self.minusSixAt1k)
            $0.setEqualizer(preAmp: 0, gains: Self.flat)
        }
        XCTAssertEqual(samples, source)
    }
}
