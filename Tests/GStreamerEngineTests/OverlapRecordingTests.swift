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
        let pipeline = try Element.pipeline("filesrc name=source ! wavparse ! identity name=mixpoint ! wavenc"
                                            + " ! filesink name=sink sync=true")
        pipeline.child(named: "source")?.set("location", file.path)
        pipeline.child(named: "sink")?.set("location", written.path)
        let incoming = try IncomingTrack(uri: file.absoluteString,
                                         caps: "audio/x-raw,format=S16LE,layout=interleaved,rate=\(rate),channels=\(channels)")
        XCTAssertNotEqual(incoming.start(), .failure)
        let mix = OverlapMix(format: .s16, channels: channels, rate: rate, curve: EqualPowerCurve(start: start, length: length))
        let missed = Mutex(0)
        let shared = UncheckedBox(incoming)
        let probe = try XCTUnwrap(pipeline.child(named: "mixpoint").flatMap {
            SampleRewriteProbe(element: $0, padName: "src") { pts in
                { bytes in
                    let none = shared.value.mix(into: bytes, firstFrameAt: pts, with: mix)
                    missed.withLock { $0 += none }
                }
            }
        })
        XCTAssertNotEqual(pipeline.setState(.playing), .failure)
        XCTAssertTrue(endOfStream(on: pipeline.bus, within: .seconds(30)), "the recording ended")
        _ = pipeline.setState(.null)
        incoming.stop()
        withExtendedLifetime(probe) {}
        return missed.withLock { $0 }
    }

    /// Waits for the pipeline's EOS; false on an error or when `limit` passed.
    private func endOfStream(on bus: Bus, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, let message = bus.pop(waitingAtMost: deadline - ContinuousClock.now) {
            switch message.kind {
            case .endOfStream: return true
            case .error(let error): XCTFail("\(error)"); return false
            default: continue
            }
        }
        return false
    }
}

/// Hands the incoming track to the probe's closure; the probe runs on one streaming thread at a time.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
