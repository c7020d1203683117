@testable import GStreamerEngine
import GStreamer
import TestSupport
import XCTest

/// A stream's first seconds cut off to the sample (LeadingCutProbe), as the crossfade's incoming track is once
/// playbin takes it over: the sweep WAV played through the probe into a WAV.
final class LeadingCutTests: XCTestCase {
    private let frameSamples = Fixtures.channels

    func testTheStreamStartsAtTheCutBitExact() throws {
        let fixtures = try Fixtures.shared()
        let (got, firstPosition) = try record(fixtures.sweep, cut: 1.0)
        let original = try wavSamples(fixtures.sweep)
        let cut = Fixtures.sampleRate * frameSamples
        XCTAssertEqual(got.count, original.count - cut, "1 s less")
        XCTAssertEqual(got, Array(original[cut...]), "the rest, unchanged")
        XCTAssertEqual(firstPosition ?? -1, 1.0, accuracy: 0.05, "its time counts from the cut")
    }

    func testACutBetweenBuffersKeepsTheSampleAtTheCut() throws {
        let fixtures = try Fixtures.shared()
        let frames = 12_345
        let (got, _) = try record(fixtures.sweep, cut: Double(frames) / Double(Fixtures.sampleRate))
        let original = try wavSamples(fixtures.sweep)
        XCTAssertEqual(got, Array(original[(frames * frameSamples)...]))
    }

    func testNoCutLeavesTheStreamAlone() throws {
        let fixtures = try Fixtures.shared()
        let (got, _) = try record(fixtures.sweep, cut: nil)
        XCTAssertEqual(got, try wavSamples(fixtures.sweep))
    }

    /// Plays `file` through the probe into a WAV; its samples, and the stream time of the first buffer written.
    private func record(_ file: URL, cut: Double?) throws -> ([Int16], Double?) {
        GStreamer.initialize()
        let directory = try TemporaryDirectory(prefix: "quaver-cut")
        let written = directory.url.appendingPathComponent("cut.wav")
        let pipeline = try Element.pipeline("filesrc name=source ! wavparse ! identity name=cutpoint ! wavenc"
                                            + " ! filesink name=sink")
        pipeline.child(named: "source")?.set("location", file.path)
        pipeline.child(named: "sink")?.set("location", written.path)
        let cutPoint = try XCTUnwrap(pipeline.child(named: "cutpoint"))
        let probe = try XCTUnwrap(LeadingCutProbe(element: cutPoint, padName: "src") { cut })
        let firstPTS = FirstTimestamp()
        let watch = try XCTUnwrap(SampleRewriteProbe(element: cutPoint, padName: "src") { pts in firstPTS.note(pts); return nil })
        XCTAssertNotEqual(pipeline.setState(.playing), .failure)
        XCTAssertTrue(endOfStream(on: pipeline.bus, within: .seconds(30)), "the recording ended")
        _ = pipeline.setState(.null)
        withExtendedLifetime((probe, watch)) {}
        return (try wavSamples(written), firstPTS.value)
    }

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

/// The first presentation time seen, from the streaming thread.
private final class FirstTimestamp: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Double?
    func note(_ pts: Double) { lock.withLock { if first == nil { first = pts } } }
    var value: Double? { lock.withLock { first } }
}
