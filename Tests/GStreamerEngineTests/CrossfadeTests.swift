import Foundation
import GStreamer
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Crossfade through the real engine (docs/ARCHITECTURE.md, "Crossfade"): two tones played into a WAV at the sound
/// card's pace (WAVSink.realTimeDescription), crossfade 1 s. A joint not within an album overlaps for 1 s along the
/// equal-power curve in the one output stream, the incoming track reported started at the overlap; a joint within
/// an album stays bit-exact; a seek or a skip during the overlap ends it and the new position or track plays.
final class CrossfadeTests: XCTestCase {
    private let overlap = 1.0
    private let rate = Fixtures.sampleRate, channels = Fixtures.channels
    private var directory: TemporaryDirectory!
    private var outgoing: URL!, longOutgoing: URL!, incoming: URL!, third: URL!

    override func setUpWithError() throws {
        GStreamer.initialize()
        directory = try TemporaryDirectory(prefix: "quaver-crossfade")
        outgoing = try tone(440, seconds: 5, named: "outgoing.wav")
        longOutgoing = try tone(440, seconds: 9, named: "long-outgoing.wav")
        incoming = try tone(660, seconds: 4, named: "incoming.wav", wave: "pink-noise")
        third = try tone(880, seconds: 3, named: "third.wav")
    }

    func testAJointOutsideAnAlbumOverlapsAlongTheCurveInOneStream() throws {
        let (engine, recorder, written) = try play(continuesAlbum: false)
        let positionAtStart = try XCTUnwrap(recorder.wait(for: "the incoming track's start", timeout: 15) { event -> Duration?? in
            event == .trackStarted(TrackID(2)) ? .some(engine.position) : nil
        })
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        XCTAssertEqual(trackStarts(recorder), [TrackID(1), TrackID(2)], "the incoming track reported once, at the overlap")
        XCTAssertLessThan(seconds(positionAtStart ?? nil), 0.5, "its position counts from the overlap's start")

        let run = try overlapRecorded(in: written)
        XCTAssertEqual(Array(run.got[..<run.start]), Array(run.outgoing[..<run.start]),
                       "before the overlap: the outgoing track, bit-exact")
        XCTAssertEqual(Array(run.got[run.outgoing.count...]), Array(run.incoming[(run.frames * channels)...]),
                       "after it: the incoming track, bit-exact")
        XCTAssertLessThanOrEqual(run.worstInside(), 2, "inside: outgoing × cos + incoming × sin (equal power)")
    }

    func testAJointWithinAnAlbumStaysGaplessAndBitExact() throws {
        let (engine, recorder, written) = try play(continuesAlbum: true)
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        XCTAssertEqual(trackStarts(recorder), [TrackID(1), TrackID(2)])
        XCTAssertEqual(try wavSamples(written), try wavSamples(outgoing) + wavSamples(incoming), "the two tracks, bit-exact")
    }

    /// 4 s of overlap: the output holds a second or two ahead, and the mix must still be going on when the overlap
    /// is heard.
    func testASeekDuringTheOverlapPlaysTheIncomingTrackFromThere() throws {
        let (engine, recorder, written) = try play(continuesAlbum: false, crossfade: 4)
        recorder.wait(for: .trackStarted(TrackID(2)), timeout: 15)
        engine.seek(to: .seconds(2), exact: true)
        let landed = recorder.waitForSeekCompleted()
        // The test's output answers the position from its unsynchronised WAV branch, up to a second and a bit ahead
        // of its clock (3.08 s measured); where the seek landed is checked to the sample in what was written below.
        XCTAssertEqual(seconds(landed), 2.6, accuracy: 0.65, "the seek was reported, about where asked")
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        XCTAssertEqual(trackStarts(recorder), [TrackID(1), TrackID(2)], "no track started again")
        // A load goes through NULL, so the WAV holds what was written after the seek; a load at a position
        // prerolls at the start, and a buffer of that may be written before the seek. A part a second in is looked
        // for in the incoming track (noise: found in one place only); from there on the rest must follow.
        let b = try wavSamples(incoming), got = try wavSamples(written)
        let sample = rate * channels
        XCTAssertGreaterThan(got.count, sample + 64, "more than a second after the seek")
        let part = got[sample..<sample + 64]
        let found = (0..<(b.count - 64)).first { b[$0..<$0 + 64].elementsEqual(part) }
        let at = try XCTUnwrap(found, "what was written is the incoming track")
        XCTAssertEqual(Double((at - sample) / channels) / Double(rate), 2, accuracy: 0.05, "from 2 s (a preroll buffer before it at most)")
        let compared = min(got.count - sample, b.count - at)
        XCTAssertGreaterThan(compared, sample / 2, "to its end")
        XCTAssertEqual(Array(got[sample..<sample + compared]), Array(b[at..<at + compared]), "alone, bit-exact")
    }

    func testAPauseDuringTheOverlapKeepsTheIncomingTrackWhereItIsHeard() throws {
        let (engine, recorder, written) = try play(continuesAlbum: false, crossfade: 4)
        recorder.wait(for: .trackStarted(TrackID(2)), timeout: 15)
        runLoop(for: 0.5)
        engine.pause()
        let paused = recorder.events.count
        runLoop(for: 1)
        let heard = seconds(engine.position)
        XCTAssertEqual(heard, 0.5, accuracy: 0.4, "paused where the incoming track was heard")
        runLoop(for: 0.5)
        XCTAssertEqual(seconds(engine.position), heard, accuracy: 0.05, "and stays there")
        engine.play()
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        XCTAssertEqual(trackStarts(recorder), [TrackID(1), TrackID(2)], "no track started again")
        XCTAssertFalse(recorder.events[paused...].contains { if case .failed = $0 { true } else { false } })
        // The pause reloads the incoming track (through NULL: the WAV holds what came after); from a second in, it
        // is the incoming track alone to its end, bit-exact.
        let b = try wavSamples(incoming), got = try wavSamples(written)
        let sample = rate * channels
        XCTAssertGreaterThan(got.count, sample + 64)
        let found = (0..<(b.count - 64)).first { b[$0..<$0 + 64].elementsEqual(got[sample..<sample + 64]) }
        let at = try XCTUnwrap(found, "what was written after the pause is the incoming track")
        let compared = min(got.count - sample, b.count - at)
        XCTAssertEqual(Array(got[sample..<sample + compared]), Array(b[at..<at + compared]), "alone, bit-exact")
    }

    func testASkipDuringTheOverlapPlaysTheNewTrack() throws {
        let (engine, recorder, written) = try play(continuesAlbum: false, crossfade: 4)
        recorder.wait(for: .trackStarted(TrackID(2)), timeout: 15)
        engine.load(EngineItem(id: TrackID(3), uri: third.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .endOfStream(TrackID(3)), timeout: 15)
        engine.stop()
        XCTAssertEqual(trackStarts(recorder), [TrackID(1), TrackID(2), TrackID(3)])
        let c = try wavSamples(third), got = try wavSamples(written)
        XCTAssertEqual(Array(got.suffix(c.count)), c, "the new track whole, nothing mixed into it")
    }

    /// ReplayGain "track": the incoming track, tagged −6 dB, is mixed in at −6 dB and goes on at −6 dB in playbin;
    /// the untagged outgoing one stays as it is.
    func testReplayGainLevelsTheIncomingTrackInsideTheMix() throws {
        let tagged = directory.url.appendingPathComponent("tagged.flac")
        try Fixtures.run("sox", ["-q", incoming.path, tagged.path])
        try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.5", tagged.path])
        let (engine, recorder, written) = try play(continuesAlbum: false, incoming: tagged, replayGain: ReplayGain(mode: .track))
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        let gain = pow(10, -6.0 / 20)
        let run = try overlapRecorded(in: written)
        XCTAssertEqual(Array(run.got[..<run.start]), Array(run.outgoing[..<run.start]), "the untagged outgoing track untouched")
        XCTAssertLessThanOrEqual(run.worstInside(incomingGain: gain), 8,
                                 "inside: the incoming track at −6 dB (dithered by the float path: up to 3.1 measured)")
        let after = (run.outgoing.count..<run.got.count).map { abs(Double(run.got[$0]) - Double(run.incoming[$0 - run.start]) * gain) }
        XCTAssertLessThanOrEqual(after.max() ?? .infinity, 8, "after: playbin's incoming track at −6 dB too")
    }

    /// The equaliser's pre-amp at −6 dB: both tracks, inside the mix too, come out at −6 dB.
    func testTheEqualizerShapesTheIncomingTrackInsideTheMix() throws {
        let (engine, recorder, written) = try play(continuesAlbum: false, equalizerPreAmp: -6)
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 15)
        engine.stop()
        let run = try overlapRecorded(in: written)
        XCTAssertLessThanOrEqual(run.worstInside(gain: pow(10, -6.0 / 20)), 8, "inside: both tracks at −6 dB")
    }

    /// Plays the outgoing tone, the incoming one prepared after it, crossfade on; the recorder and the WAV written.
    private func play(continuesAlbum: Bool, crossfade: Double = 1, incoming: URL? = nil,
                      replayGain: ReplayGain = ReplayGain(), equalizerPreAmp: Double? = nil) throws -> (GStreamerEngine, EventRecorder, URL) {
        let incoming = incoming ?? self.incoming!
        let written = directory.url.appendingPathComponent("crossfaded-\(continuesAlbum).wav")
        let engine = GStreamerEngine(configuration: .init(sink: WAVSink.realTimeDescription(writingTo: written),
                                                              applicationName: "Quaver tests", replayGain: replayGain))
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.setCrossfade(seconds: crossfade)
        if let equalizerPreAmp { engine.setEqualizer(preAmp: equalizerPreAmp, gains: Array(repeating: 0, count: 10)) }
        let first = crossfade > 2 ? longOutgoing! : outgoing!
        engine.load(EngineItem(id: TrackID(1), uri: first.absoluteString), at: .zero, playing: true)
        engine.prepareNext(EngineItem(id: TrackID(2), uri: incoming.absoluteString, continuesAlbum: continuesAlbum))
        return (engine, recorder, written)
    }

    /// The outgoing and incoming tones' samples and those written, the overlap's length checked.
    private func overlapRecorded(in written: URL) throws -> RecordedOverlap {
        let run = RecordedOverlap(outgoing: try wavSamples(outgoing), incoming: try wavSamples(incoming),
                                  got: try wavSamples(written), channels: channels)
        XCTAssertEqual(Double(run.frames) / Double(rate), overlap, accuracy: 0.05, "the overlap's length")
        return run
    }

    private func trackStarts(_ recorder: EventRecorder) -> [TrackID] {
        recorder.events.compactMap { if case .trackStarted(let id) = $0 { id } else { nil } }
    }

    /// `seconds` of a sine at `frequency` Hz (or another of audiotestsrc's waves: noise never repeats, so a part of
    /// it is found in one place only), half scale, 16-bit stereo at the fixtures' rate, as a WAV.
    private func tone(_ frequency: Int, seconds: Int, named name: String, wave: String = "sine") throws -> URL {
        let file = directory.url.appendingPathComponent(name)
        let pipeline = try Element.pipeline("audiotestsrc wave=\(wave) freq=\(frequency) volume=0.5 samplesperbuffer=4410"
                                            + " num-buffers=\(seconds * 10) ! audio/x-raw,format=S16LE,rate=\(rate),"
                                            + "channels=\(channels) ! wavenc ! filesink name=file")
        pipeline.child(named: "file")?.set("location", file.path)
        XCTAssertNotEqual(pipeline.setState(.playing), .failure)
        XCTAssertTrue(pipeline.bus.endOfStream(within: .seconds(30)), "\(name) written")
        _ = pipeline.setState(.null)
        return file
    }
}

/// Two tracks crossfaded and recorded to the end: the overlap is what the recording is shorter than both.
private struct RecordedOverlap {
    let outgoing: [Int16], incoming: [Int16], got: [Int16]
    let channels: Int

    var frames: Int { (outgoing.count + incoming.count - got.count) / channels }
    /// The overlap's first sample in the recording.
    var start: Int { outgoing.count - frames * channels }

    /// The largest difference inside the overlap from (outgoing × cos + incoming × `incomingGain` × sin) × `gain`,
    /// rounded to a sample, along the equal-power curve.
    func worstInside(incomingGain: Double = 1, gain: Double = 1) -> Int {
        guard frames > 0, start >= 0 else { return .max }
        return (start..<outgoing.count).map { index in
            let progress = Double((index - start) / channels) / Double(frames)
            let expected = (Double(outgoing[index]) * cos(progress * .pi / 2)
                            + Double(incoming[index - start]) * incomingGain * sin(progress * .pi / 2)) * gain
            return abs(Int(got[index]) - Int(expected.rounded()))
        }.max() ?? .max
    }
}
