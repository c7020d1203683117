import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Two halves of one sine sweep, played one after the other through the engine into a WAV file,
/// must give back the original samples exactly: no gap, no overlap, no change (scaletempo and the
/// software volume stay in the chain at rate 1 and volume 1).
final class GaplessTests: XCTestCase {
    func testWAVHalvesJoinBitExactly() throws {
        let fixtures = try Fixtures.shared()
        try assertGapless(fixtures.sweepHalvesWAV, original: fixtures.sweep)
    }

    func testFLACHalvesJoinBitExactly() throws {
        let fixtures = try Fixtures.shared()
        try assertGapless(fixtures.sweepHalvesFLAC, original: fixtures.sweep)
    }

    /// The equaliser is always in the filter: set and then back to flat, it passes every sample untouched.
    func testFLACHalvesJoinBitExactlyWithTheEqualizerBackToFlat() throws {
        let fixtures = try Fixtures.shared()
        try assertGapless(fixtures.sweepHalvesFLAC, original: fixtures.sweep) { engine in
            engine.setEqualizer(preAmp: -3, gains: [6, 6, 5, 3, 1, 0, 0, 0, 0, 0])
            engine.setEqualizer(preAmp: 0, gains: Array(repeating: 0, count: 10))
        }
    }

    private func assertGapless(_ halves: (URL, URL), original: URL, configure: (GStreamerEngine) -> Void = { _ in },
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try TemporaryDirectory(prefix: "quaver-gapless")
        let written = directory.url.appendingPathComponent("joined.wav")
        let engine = try GStreamerEngineFactory.make(sink: WAVSink.description(writingTo: written))
        configure(engine)
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: halves.0.absoluteString), at: .zero, playing: true)
        engine.prepareNext(EngineItem(id: TrackID(2), uri: halves.1.absoluteString))
        recorder.wait(for: .endOfStream(TrackID(2)), file: file, line: line)
        engine.stop()
        XCTAssertEqual(recorder.events.filter { if case .trackStarted = $0 { return true } else { return false } },
                       [.trackStarted(TrackID(1)), .trackStarted(TrackID(2))], file: file, line: line)

        let expected = try wavSamples(original)
        let got = try wavSamples(written)
        XCTAssertEqual(got.count, expected.count, "sample count", file: file, line: line)
        if let first = zip(got, expected).enumerated().first(where: { $1.0 != $1.1 })?.offset {
            let frame = first / Fixtures.channels
            XCTFail("first different sample at frame \(frame) (joint at \(Fixtures.firstHalfFrames)); "
                    + "offset \(SampleOffset.best(got, expected, around: first)) samples", file: file, line: line)
        }
    }
}

/// A sink description that writes 16-bit WAV (`gst_parse_bin_from_description` ghosts its sink pad).
enum WAVSink {
    static func description(writingTo url: URL) -> String {
        "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=\"\(url.path)\""
    }

    /// The same, held to real time by a clock-synchronised fakesink beside it (a tee whose queue lets the
    /// file run at most a second ahead): for tests that change something while a track plays.
    static func realTimeDescription(writingTo url: URL) -> String {
        "tee name=split ! queue ! fakesink sync=true split. ! queue ! " + description(writingTo: url)
    }
}

/// For the failure message: the shift that best aligns two sample arrays near where they diverge.
enum SampleOffset {
    static func best(_ got: [Int16], _ expected: [Int16], around index: Int) -> Int {
        let window = 2_000
        let start = max(0, index)
        return (-64...64).min { a, b in
            mismatch(got, expected, start, shift: a, window) < mismatch(got, expected, start, shift: b, window)
        } ?? 0
    }

    private static func mismatch(_ got: [Int16], _ expected: [Int16], _ start: Int, shift: Int, _ window: Int) -> Int {
        (start..<start + window).reduce(0) { sum, i in
            let j = i + shift
            guard i < got.count, j >= 0, j < expected.count else { return sum + 1 }
            return sum + (got[i] == expected[j] ? 0 : 1)
        }
    }
}
