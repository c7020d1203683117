@testable import GStreamerEngine
import CGStreamer
@testable import GStreamer
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

    /// Streams joined one after another as playbin joins them (`concat` too gives each stream the running time where
    /// the one before ended in its own, uncut segment): after a cut stream the next must start where the cut one
    /// ended, not the time cut later. Before the probe moved later segments back, the third stream started 0.5 s late,
    /// and playing in real time that was 0.5 s of silence (6 s after each overlap with crossfade 6 s).
    func testAStreamAfterACutOneStartsWhereTheCutOneEnded() throws {
        GStreamer.initialize()
        let (first, second) = try Fixtures.shared().sweepHalvesWAV
        let pipeline = try Element.pipeline("concat name=joint ! identity name=cutpoint ! fakesink name=sink sync=false"
                                            + " filesrc name=a ! wavparse ! joint. filesrc name=b ! wavparse ! joint."
                                            + " filesrc name=c ! wavparse ! joint.")
        for (name, file) in [("a", first), ("b", second), ("c", first)] { pipeline.child(named: name)?.set("location", file.path) }
        let cuts = CutSequence([nil, 0.5, 0.25])
        let cutPoint = try XCTUnwrap(pipeline.child(named: "cutpoint"))
        let probe = try XCTUnwrap(LeadingCutProbe(element: cutPoint, padName: "src") { cuts.next() })
        let starts = StreamStarts()
        let sinkPad = try XCTUnwrap(gst_element_get_static_pad(try XCTUnwrap(pipeline.child(named: "sink")).pointer, "sink"))
        defer { gst_object_unref(sinkPad) }
        let watch = starts.watch(sinkPad)
        XCTAssertNotEqual(pipeline.setState(.playing), .failure)
        XCTAssertTrue(pipeline.bus.endOfStream(within: .seconds(30)), "the streams ended")
        _ = pipeline.setState(.null)
        gst_pad_remove_probe(sinkPad, watch)
        withExtendedLifetime(probe) {}

        let firstLength = try seconds(wavSamples(first)), secondLength = try seconds(wavSamples(second))
        let got = starts.runningTimes
        XCTAssertEqual(got.count, 3, "three streams: \(got)")
        guard got.count == 3 else { return }
        XCTAssertEqual(got[0], 0, accuracy: 0.001)
        XCTAssertEqual(got[1], firstLength, accuracy: 0.001, "the cut stream starts where the first ended")
        XCTAssertEqual(got[2], firstLength + secondLength - 0.5, accuracy: 0.001,
                       "the stream after it starts where the cut one ended")
    }

    private func seconds(_ samples: [Int16]) -> Double { Double(samples.count / frameSamples) / Double(Fixtures.sampleRate) }

    /// Plays `file` through the probe into a WAV; its samples, and the stream time of the first buffer written.
    private func record(_ file: URL, cut: Double?) throws -> ([Int16], Double?) {
        let directory = try TemporaryDirectory(prefix: "quaver-cut")
        let written = directory.url.appendingPathComponent("cut.wav")
        let firstPTS = FirstTimestamp()
        try ProbeRecording.play(file, into: written) { cutPoint in
            (try XCTUnwrap(LeadingCutProbe(element: cutPoint, padName: "src") { cut }),
             try XCTUnwrap(SampleRewriteProbe(element: cutPoint, padName: "src") { pts in firstPTS.note(pts); return nil }))
        }
        return (try wavSamples(written), firstPTS.value)
    }
}

/// The first presentation time seen, from the streaming thread.
private final class FirstTimestamp: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Double?
    func note(_ pts: Double) { lock.withLock { if first == nil { first = pts } } }
    var value: Double? { lock.withLock { first } }
}

/// The cuts to ask for at each STREAM_START in turn.
private final class CutSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var cuts: [Double?]
    init(_ cuts: [Double?]) { self.cuts = cuts }
    func next() -> Double? { lock.withLock { cuts.isEmpty ? nil : cuts.removeFirst() } }
}

/// The running time of each stream's first buffer at a pad (its SEGMENT applied), from the streaming thread.
private final class StreamStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var segment = GstSegment()
    private var waitingForFirstBuffer = false
    private var starts: [Double] = []

    var runningTimes: [Double] { lock.withLock { starts } }

    func watch(_ pad: UnsafeMutablePointer<GstPad>) -> gulong {
        let types = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        return gst_pad_add_probe(pad, types, { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            Unmanaged<StreamStarts>.fromOpaque(data).takeUnretainedValue().see(info)
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(self).toOpaque(), { data in Unmanaged<StreamStarts>.fromOpaque(data!).release() })
    }

    private func see(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            guard let buffer = info.pointee.data?.assumingMemoryBound(to: GstBuffer.self) else { return }
            lock.withLock {
                guard waitingForFirstBuffer else { return }
                waitingForFirstBuffer = false
                let running = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, buffer.pointee.pts)
                starts.append(Double(running) / 1e9)
            }
            return
        }
        guard let event = info.pointee.data?.assumingMemoryBound(to: GstEvent.self) else { return }
        if event.pointee.type == GST_EVENT_STREAM_START {
            lock.withLock { waitingForFirstBuffer = true }
        } else if event.pointee.type == GST_EVENT_SEGMENT {
            var parsed: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &parsed)
            if let parsed { lock.withLock { segment = parsed.pointee } }
        }
    }
}
