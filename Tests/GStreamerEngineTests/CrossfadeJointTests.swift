@testable import GStreamerEngine
import GStreamer
import Synchronization
import TestSupport
import XCTest

/// A crossfade's joint on a real playbin (docs/ARCHITECTURE.md, "Crossfade"): the sweep's two halves played one after the
/// other into a WAV at the sound card's pace, the second handed over at about-to-finish, with a CrossfadeJoint in
/// front of the WAV writer. Armed, the second half is mixed into the first's last second and playbin's copy of it
/// goes on where the mix ended; not armed, the joint is gapless and bit-exact as without the joint.
final class CrossfadeJointTests: XCTestCase {
    private let overlap = 1.0
    private let rate = Fixtures.sampleRate, channels = Fixtures.channels

    func testAnArmedJointOverlapsAlongTheCurveAndTheIncomingGoesOnWhereTheMixEnded() throws {
        let (first, second) = try Fixtures.shared().sweepHalvesWAV
        let run = try record(first, then: second, crossfading: true)
        let outgoing = try wavSamples(first), incoming = try wavSamples(second), got = run.samples
        let outgoingFrames = outgoing.count / channels, overlapFrames = Int(overlap * Double(rate))
        let startSample = (outgoingFrames - overlapFrames) * channels
        XCTAssertEqual(run.starts, 1, "the overlap was reported started once")
        XCTAssertEqual(run.figures.mixed + run.figures.missed, overlapFrames, "the overlap lasted its length, to the frame")
        XCTAssertEqual(run.figures.missed, 0, "every frame of the overlap had an incoming sample ready")
        XCTAssertEqual(run.streamStarts, 2, "the bus saw both streams start")
        XCTAssertEqual(got.count, outgoing.count + incoming.count - overlapFrames * channels, "one stream, the overlap shared")
        XCTAssertEqual(Array(got[..<startSample]), Array(outgoing[..<startSample]), "before the overlap: bit-exact")
        XCTAssertEqual(Array(got[outgoing.count...]), Array(incoming[(overlapFrames * channels)...]),
                       "after it: playbin's incoming track from the mix's end, bit-exact")
        let curve = EqualPowerCurve(start: Double(outgoingFrames - overlapFrames) / Double(rate), length: overlap)
        let worst = (startSample..<outgoing.count).map { index -> Int in
            let gains = curve.gains(at: Double(index / channels) / Double(rate))
            let expected = Double(outgoing[index]) * gains.outgoing + Double(incoming[index - startSample]) * gains.incoming
            return abs(Int(got[index]) - Int(expected.rounded()))
        }.max()
        XCTAssertLessThanOrEqual(worst ?? .max, 1, "inside: outgoing × cos + incoming × sin, each sample")
    }

    func testAJointNotArmedStaysGaplessAndBitExact() throws {
        let (first, second) = try Fixtures.shared().sweepHalvesWAV
        let run = try record(first, then: second, crossfading: false)
        XCTAssertEqual(run.samples, try wavSamples(try Fixtures.shared().sweep), "the whole sweep, bit-exact")
        XCTAssertEqual(run.starts, 0)
        XCTAssertEqual(run.figures.mixed + run.figures.missed, 0, "nothing was mixed")
        XCTAssertEqual(run.streamStarts, 2)
    }

    private struct Run {
        var samples: [Int16]
        var starts: Int
        var figures: (mixed: Int, missed: Int)
        var streamStarts: Int
    }

    /// Plays `first` then `second` (handed at about-to-finish) through the joint into a WAV, arming it once
    /// `first` has prerolled when `crossfading`.
    private func record(_ first: URL, then second: URL, crossfading: Bool) throws -> Run {
        GStreamer.initialize()
        let directory = try TemporaryDirectory(prefix: "quaver-joint")
        let written = directory.url.appendingPathComponent("joint.wav")
        let playbin = try Element.make("playbin")
        let output = try Element.parse("identity name=joint ! wavenc ! filesink name=file sync=true")
        output.child(named: "file")?.set("location", written.path)
        playbin.set("flags", "audio")
        playbin.set("audio-sink", output)
        playbin.set("uri", first.absoluteString)
        let handed = Mutex(false)
        let handover = playbin.connect("about-to-finish") {
            guard handed.withLock({ wasHanded in defer { wasHanded = true }; return !wasHanded }) else { return }
            playbin.set("uri", second.absoluteString)
        }
        let starts = Mutex(0)
        let joint = try XCTUnwrap(output.child(named: "joint").flatMap { CrossfadeJoint(element: $0, padName: "src", streaming: StreamingSide(), generation: 0) })
        var streamStarts = 0
        XCTAssertNotEqual(playbin.setState(.paused), .failure)
        XCTAssertTrue(wait(on: playbin.bus, for: { kind in
            if case .streamStart = kind { streamStarts += 1 }
            if case .asyncDone = kind { return true }
            return false
        }), "prerolled")
        if crossfading {
            let length = Double(try wavSamples(first).count / channels) / Double(rate)
            XCTAssertNotNil(joint.arm(incoming: second.absoluteString, seconds: overlap, outgoingLength: length,
                                     started: { _ in starts.withLock { $0 += 1 } }))
        }
        XCTAssertNotEqual(playbin.setState(.playing), .failure)
        XCTAssertTrue(wait(on: playbin.bus, for: { kind in
            if case .streamStart = kind { streamStarts += 1 }
            if case .endOfStream = kind { return true }
            return false
        }), "the recording ended")
        _ = playbin.setState(.null)
        let figures = joint.figures
        joint.end()?.stop()
        handover.cancel()
        return Run(samples: try wavSamples(written), starts: starts.withLock { $0 }, figures: figures, streamStarts: streamStarts)
    }

    /// Waits for a message `done` accepts (it sees every message); false on an error or after 30 s.
    private func wait(on bus: Bus, for done: (MessageKind) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, let message = bus.pop(waitingAtMost: deadline - ContinuousClock.now) {
            if case .error(let error) = message.kind { XCTFail("\(error)"); return false }
            if done(message.kind) { return true }
        }
        return false
    }
}
