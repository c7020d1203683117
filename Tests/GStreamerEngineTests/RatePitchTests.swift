import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Rates other than 1 change the tempo, not the pitch (scaletempo): the fixtures' 440 Hz tone played
/// at 2× and at 0.5× into a WAV file lasts half or twice as long and is still 440 Hz, counted by
/// rising zero crossings. A plain rate change would give 880 Hz and 220 Hz.
final class RatePitchTests: XCTestCase {
    func testRateTwoHalvesTheLengthAndKeepsThePitch() throws {
        try assertPitchKept(rate: 2)
    }

    func testRateOneHalfDoublesTheLengthAndKeepsThePitch() throws {
        try assertPitchKept(rate: 0.5)
    }

    /// The rate also holds for a gapless successor, which starts with a segment of its own.
    func testTheRateCarriesOverAGaplessSwitch() throws {
        let fixtures = try Fixtures.shared()
        let (samples, events) = try record(rate: 2, [fixtures.wav, fixtures.wav])
        XCTAssertEqual(events.filter { if case .trackStarted = $0 { return true } else { return false } }.count, 2)
        let seconds = Double(samples.count / Fixtures.channels) / Double(Fixtures.sampleRate)
        XCTAssertEqual(seconds, 2 * Double(Fixtures.toneSeconds) / 2, accuracy: 0.3, "two 10 s tones at 2×")
        let secondHalf = Array(samples[(samples.count / 2)...])
        XCTAssertEqual(Self.frequency(of: secondHalf), 440, accuracy: 5)
    }

    private func assertPitchKept(rate: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixtures = try Fixtures.shared()
        let (samples, _) = try record(rate: rate, [fixtures.wav])
        let seconds = Double(samples.count / Fixtures.channels) / Double(Fixtures.sampleRate)
        XCTAssertEqual(seconds, Double(Fixtures.toneSeconds) / rate, accuracy: 0.3, "length", file: file, line: line)
        XCTAssertEqual(Self.frequency(of: samples), 440, accuracy: 5, "pitch", file: file, line: line)
    }

    /// Plays `files` one after the other at `rate` into a WAV file; its samples and the engine's events.
    private func record(rate: Double, _ files: [URL]) throws -> ([Int16], [AudioEngineEvent]) {
        let directory = try TemporaryDirectory(prefix: "quaver-rate")
        let written = directory.url.appendingPathComponent("out.raw")
        // Raw samples, not wavenc: wavenc restarts its data at each new segment (a seek), hiding what came before.
        let engine = try GStreamerEngineFactory.make(sink: "audioconvert ! audio/x-raw,format=S16LE,channels=2 ! "
                                                         + "filesink location=\"\(written.path)\"")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.setRate(rate)
        engine.load(EngineItem(id: TrackID(1), uri: files[0].absoluteString), at: .zero, playing: true)
        if files.count > 1 { engine.prepareNext(EngineItem(id: TrackID(2), uri: files[1].absoluteString)) }
        recorder.wait(for: .endOfStream(TrackID(UInt64(files.count))), timeout: 30)
        engine.stop()
        let bytes = try Data(contentsOf: written)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return (samples, recorder.events)
    }

    /// Rising zero crossings per second of the left channel, skipping the first and last 0.2 s.
    private static func frequency(of interleaved: [Int16]) -> Double {
        let left = stride(from: 0, to: interleaved.count, by: Fixtures.channels).map { interleaved[$0] }
        let margin = Fixtures.sampleRate / 5
        guard left.count > 2 * margin + 1 else { return 0 }
        let window = left[margin..<(left.count - margin)]
        let crossings = zip(window, window.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        return Double(crossings) / (Double(window.count) / Double(Fixtures.sampleRate))
    }
}
