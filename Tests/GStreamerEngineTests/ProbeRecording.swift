import GStreamer
import XCTest

/// A WAV played through an `identity` element into another WAV, for the probes on that element's src pad that
/// the crossfade is built of (LeadingCutProbe, SampleRewriteProbe): what they wrote is then read sample by sample.
enum ProbeRecording {
    /// Plays `file` into `written`, with what `probes` puts on the identity element kept until the end; `clocked`:
    /// at the sound card's pace (the file sink syncs to the clock), as an incoming track is mixed in real time.
    static func play(_ file: URL, into written: URL, clocked: Bool = false, probes: (Element) throws -> Any) throws {
        GStreamer.initialize()
        let pipeline = try Element.pipeline("filesrc name=source ! wavparse ! identity name=probed ! wavenc"
                                            + " ! filesink name=sink sync=\(clocked)")
        pipeline.child(named: "source")?.set("location", file.path)
        pipeline.child(named: "sink")?.set("location", written.path)
        let attached = try probes(try XCTUnwrap(pipeline.child(named: "probed")))
        XCTAssertNotEqual(pipeline.setState(.playing), .failure)
        XCTAssertTrue(pipeline.bus.endOfStream(within: .seconds(30)), "the recording ended")
        _ = pipeline.setState(.null)
        withExtendedLifetime(attached) {}
    }
}

extension Bus {
    /// Waits for the pipeline's EOS; false (and the test failed) on an error, false when `limit` passed.
    func endOfStream(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, let message = pop(waitingAtMost: deadline - ContinuousClock.now) {
            switch message.kind {
            case .endOfStream: return true
            case .error(let error): XCTFail("\(error)"); return false
            default: continue
            }
        }
        return false
    }
}
