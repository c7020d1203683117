@testable import GStreamerEngine
import GStreamer
import Synchronization
import TestSupport
import XCTest

/// The overlap's pieces on real buffers: the sweep played into a WAV, clocked like a sound card, with a second
/// copy of it (IncomingTrack) added in place from 1 s on over 1 s by a SampleRewriteProbe (docs/ARCHITECTURE.md, "Crossfade").
final class OverlapRecordingTests: XCTestCase {
    private let start = 1.0, length = 1.0
    private let rate = Fixtures.sampleRate, channels = Fixtures.channels

    func testTheIncomingCopyJoinsAtTheOverlapAlongTheCurve() throws {
        let fixtures = try Fixtures.shared()
        let directory = try TemporaryDirectory(prefix: "quaver-overlap")
        let written = directory.url.appendingPathComponent("mixed.wav")
        let missed = try record(fixtures.sweep, into: written)
        XCTAssertEqual(missed, 0, "every frame of the overlap had an incoming sample ready")

        let original = try wavSamples(fixtures.sweep), got = try wavSamples(written)
        let startSample = Int(start * Double(rate)) * channels, endSample = Int((start + length) * Double(rate)) * channels
        XCTAssertEqual(got.count, original.count, "the outgoing stream's length")
        XCTAssertEqual(Array(got[..<startSample]), Array(original[..<startSample]), "before the overlap: bit-exact")
        XCTAssertEqual(Array(got[endSample...]), Array(original[(endSample - startSample)..<(original.count - startSample)]),
                       "after it: the incoming copy alone, bit-exact")
        let curve = EqualPowerCurve(start: start, length: length)
        let worst = (startSample..<endSample).map { index -> Int in
            let gains = curve.gains(at: Double(index / channels) / Double(rate))
            let expected = Double(original[index]) * gains.outgoing + Double(original[index - startSample]) * gains.incoming
            return abs(Int(got[index]) - Int(expected.rounded()))
        }.max()
        XCTAssertLessThanOrEqual(worst ?? .max, 1, "inside: outgoing × cos + incoming × sin, each sample")
    }

    /// Plays `file` into `written` with its copy mixed in; returns the overlap's frames that had no incoming sample.
    private func record(_ file: URL, into written: URL) throws -> Int {
        GStreamer.initialize()
        let incoming = try IncomingTrack(uri: file.absoluteString,
                                         caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=\(rate),channels=\(channels)")
        XCTAssertNotEqual(incoming.start(), .failure)
        let mix = OverlapMix(format: .s16, channels: channels, rate: rate, curve: EqualPowerCurve(start: start, length: length))
        let missed = Mutex(0)
        let shared = UncheckedBox(incoming)
        try ProbeRecording.play(file, into: written, clocked: true) { mixPoint in
            try XCTUnwrap(SampleRewriteProbe(element: mixPoint, padName: "src") { pts in
                { bytes in
                    let none = shared.value.mix(into: bytes, firstFrameAt: pts, with: mix)
                    missed.withLock { $0 += none }
                }
            })
        }
        incoming.stop()
        return missed.withLock { $0 }
    }
}

/// Hands the incoming track to the probe's closure; the probe runs on one streaming thread at a time.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
