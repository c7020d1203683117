import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// ReplayGain through the real engine into a WAV file: the recorded level changes by the tagged gain
/// (track or album), plus the pre-amp, never past full scale (rgvolume's peak clamp); untagged tracks and `off` stay bit-exact;
/// after a gapless switch the next track gets its own gain, an untagged one none (bit-exact) and one with
/// a track gain only that gain even in album mode; "auto" takes the album gain for an item that
/// shares its album with a neighbour and the track gain for one alone, switching at the gapless joint.
final class ReplayGainTests: XCTestCase {
    static var folder: TemporaryDirectory!
    /// A 440 Hz tone at 0.25 of full scale (−12 dBFS peak), untagged.
    static var plain: URL!
    /// The same samples tagged: track −6.00 dB, album −10.00 dB, peaks 0.25.
    static var tagged: URL!
    /// A tone at 0.9 of full scale tagged +6.00 dB with its peak 0.9: the gain must stop at full scale.
    static var loud: URL!
    /// The same tone tagged 0 dB without a peak: a positive pre-amp would push it past full scale.
    static var loudWithoutPeak: URL!
    /// The quiet tone with a track gain of −3.00 dB and nothing else.
    static var trackGainOnly: URL!

    override class func setUp() {
        do {
            folder = try TemporaryDirectory(prefix: "quaver-replaygain")
            func path(_ name: String) -> URL { folder.url.appendingPathComponent(name) }
            for (name, volume) in [("quiet", "0.25"), ("loud", "0.9")] {
                try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", path("\(name).wav").path,
                                         "synth", "2", "sine", "440", "vol", volume])
                try Fixtures.run("flac", ["-s", "-f", "-o", path("\(name).flac").path, path("\(name).wav").path])
            }
            plain = path("quiet.flac")
            tagged = path("tagged.flac")
            loud = path("loud.flac")
            loudWithoutPeak = path("loud-no-peak.flac")
            trackGainOnly = path("track-gain-only.flac")
            try FileManager.default.copyItem(at: plain, to: trackGainOnly)
            try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-3.00 dB", trackGainOnly.path])
            try FileManager.default.copyItem(at: plain, to: tagged)
            try FileManager.default.copyItem(at: loud, to: loudWithoutPeak)
            try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=+0.00 dB", loudWithoutPeak.path])
            try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.25",
                                          "--set-tag=REPLAYGAIN_ALBUM_GAIN=-10.00 dB", "--set-tag=REPLAYGAIN_ALBUM_PEAK=0.25",
                                          tagged.path])
            try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=+6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.9",
                                          loud.path])
        } catch {
            XCTFail("fixtures: \(error)")
        }
    }

    override class func tearDown() { folder = nil }

    /// Plays `files` one after the other (gaplessly) and returns the recorded samples; `sharingAlbum[i]`
    /// is what the engine is told of the i-th item's album neighbours (false when left out).
    func record(_ files: [URL], _ replayGain: ReplayGain, sharingAlbum: [Bool] = [], equalizerPreAmp: Double? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> [Int16] {
        func item(_ index: Int) -> EngineItem {
            EngineItem(id: TrackID(UInt64(index + 1)), uri: files[index].absoluteString,
                       sharesAlbumWithNeighbour: sharingAlbum.indices.contains(index) && sharingAlbum[index])
        }
        let output = try TemporaryDirectory(prefix: "quaver-replaygain-out")
        let written = output.url.appendingPathComponent("out.wav")
        let engine = GStreamerEngine(configuration: .init(sink: WAVSink.description(writingTo: written),
                                                              applicationName: "Quaver tests", replayGain: replayGain))
        let recorder = EventRecorder()
        engine.delegate = recorder
        if let equalizerPreAmp { engine.setEqualizer(preAmp: equalizerPreAmp, gains: Array(repeating: 0, count: 10)) }
        engine.load(item(0), at: .zero, playing: true)
        if files.count > 1 { engine.prepareNext(item(1)) }
        recorder.wait(for: .endOfStream(TrackID(UInt64(files.count))), file: file, line: line)
        engine.stop()
        return try wavSamples(written)
    }

    /// RMS level in dB relative to full scale.
    func level(_ samples: ArraySlice<Int16>) -> Double {
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
        return 10 * log10(meanSquare / (32768.0 * 32768.0))
    }

    func level(_ samples: [Int16]) -> Double { level(samples[...]) }

    func testTrackAndAlbumGainChangeTheLevelByTheTaggedAmount() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        XCTAssertEqual(reference, -15.05, accuracy: 0.1, "a sine at 0.25: −12 dB peak, −15.05 dB RMS")
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .off))) - reference, 0, accuracy: 0.01)
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .track))) - reference, -6, accuracy: 0.05)
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .album))) - reference, -10, accuracy: 0.05)
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .track, preAmp: 3))) - reference, -3, accuracy: 0.05)
    }

    func testUntaggedTracksAndOffStayBitExact() throws {
        let source = try wavSamples(Self.folder.url.appendingPathComponent("quiet.wav"))
        XCTAssertEqual(try record([Self.plain], ReplayGain(mode: .off)), source)
        XCTAssertEqual(try record([Self.plain], ReplayGain(mode: .track)), source, "0 dB passes through rgvolume untouched")
    }

    /// With the equaliser configured flat (a pre-amp set and back to 0), ReplayGain's untagged and gapless
    /// cases stay bit-exact.
    func testUntaggedTracksStayBitExactWithAFlatEqualizer() throws {
        let source = try wavSamples(Self.folder.url.appendingPathComponent("quiet.wav"))
        XCTAssertEqual(try record([Self.plain], ReplayGain(mode: .track), equalizerPreAmp: 0), source)
        let joined = try record([Self.tagged, Self.plain], ReplayGain(mode: .track), equalizerPreAmp: 0)
        XCTAssertEqual(Array(joined[source.count...]), source, "the untagged track after a tagged one, gaplessly")
    }

    func testTheGainStopsAtFullScale() throws {
        let samples = try record([Self.loud], ReplayGain(mode: .track))
        let peak = Double(samples.map { abs(Int($0)) }.max() ?? 0) / 32768
        // +6 dB asked; the tagged peak 0.9 allows 1/0.9 (+0.92 dB).
        XCTAssertEqual(20 * log10(peak / 0.9), 0.92, accuracy: 0.1)
        XCTAssertLessThan(samples.filter { $0 == .max || $0 == .min }.count, 10, "clipped samples")
    }

    func testAPositivePreAmpNeverGoesPastFullScale() throws {
        // No peak tag counts as full scale: +6 dB pre-amp leaves the 0.9 tone at 0.9 instead of clipping.
        let samples = try record([Self.loudWithoutPeak], ReplayGain(mode: .track, preAmp: 6))
        XCTAssertEqual(Double(samples.map { abs(Int($0)) }.max() ?? 0) / 32768, 0.9, accuracy: 0.001)
        // With room below full scale the pre-amp applies in full.
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .track, preAmp: 6))) - reference, 0, accuracy: 0.05)
    }

    func testTheNextTrackOfAGaplessSwitchGetsItsOwnGain() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        let samples = try record([Self.plain, Self.tagged], ReplayGain(mode: .track))
        let frames = 2 * 44_100 * 2  // two seconds of stereo samples per track
        XCTAssertEqual(samples.count, 2 * frames, accuracy: 2 * 1024)
        // Away from the joint: the last 0.2 s of the first track, the last second of the second.
        XCTAssertEqual(level(samples[(frames - 17_640)..<frames]) - reference, 0, accuracy: 0.05)
        XCTAssertEqual(level(samples[(samples.count - 88_200)...]) - reference, -6, accuracy: 0.05)
    }

    func testAutoTakesTheAlbumGainWithinAnAlbumAndTheTrackGainAlone() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .auto), sharingAlbum: [true])) - reference,
                       -10, accuracy: 0.05)
        XCTAssertEqual(level(try record([Self.tagged], ReplayGain(mode: .auto), sharingAlbum: [false])) - reference,
                       -6, accuracy: 0.05)
    }

    func testAutoSwitchesBetweenAlbumAndTrackGainAtAGaplessJoint() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        let samples = try record([Self.tagged, Self.tagged], ReplayGain(mode: .auto), sharingAlbum: [true, false])
        let frames = 2 * 44_100 * 2
        XCTAssertEqual(samples.count, 2 * frames, accuracy: 2 * 1024)
        XCTAssertEqual(level(samples[..<frames]) - reference, -10, accuracy: 0.05, "the first from its first sample")
        XCTAssertEqual(level(samples[frames...]) - reference, -6, accuracy: 0.05, "the second from its first sample")
    }

    func testAutoFollowsAnUpdateWhileTheTrackPlays() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        let output = try TemporaryDirectory(prefix: "quaver-replaygain-out")
        let written = output.url.appendingPathComponent("out.wav")
        // In real time, so that the update arrives while the track plays: 5 s, of which at most about the
        // first second can have passed rgvolume before the update.
        let long = Self.folder.url.appendingPathComponent("long-tagged.flac")
        if !FileManager.default.fileExists(atPath: long.path) {
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", long.path, "synth", "5", "sine", "440",
                                     "vol", "0.25"])
            try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_ALBUM_GAIN=-10.00 dB",
                                          long.path])
        }
        let engine = GStreamerEngine(configuration: .init(sink: WAVSink.realTimeDescription(writingTo: written),
                                                              applicationName: "Quaver tests",
                                                              replayGain: ReplayGain(mode: .auto)))
        let recorder = EventRecorder()
        engine.delegate = recorder
        let item = EngineItem(id: TrackID(1), uri: long.absoluteString)
        engine.load(item, at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)))
        engine.update(EngineItem(id: item.id, uri: item.uri, sharesAlbumWithNeighbour: true))
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 30)  // 5 s in real time, on a busy machine too
        engine.stop()
        let samples = try wavSamples(written)
        // Loaded as a lone track (−6 dB): the album gain at the end can only come from the update.
        XCTAssertEqual(level(samples[(samples.count - 88_200)...]) - reference, -10, accuracy: 0.05, "the last second")
    }

    /// rgvolume alone kept the tagged track's −6 dB for the untagged one after it (no EOS at a gapless switch).
    func testAnUntaggedTrackAfterATaggedOneGaplesslyStaysBitExact() throws {
        let source = try wavSamples(Self.folder.url.appendingPathComponent("quiet.wav"))
        let samples = try record([Self.tagged, Self.plain], ReplayGain(mode: .track))
        XCTAssertEqual(samples.count, 2 * source.count, accuracy: 2 * 1024)
        XCTAssertEqual(Array(samples[source.count...]), source)
    }

    /// rgvolume alone kept the first track's album gain (−10 dB) for the second, which has a track gain only.
    func testATrackGainAloneAfterAnAlbumGainIsThatTracksGainInAlbumMode() throws {
        let reference = level(try record([Self.plain], ReplayGain(mode: .off)))
        let samples = try record([Self.tagged, Self.trackGainOnly], ReplayGain(mode: .album))
        let frames = 2 * 44_100 * 2
        XCTAssertEqual(level(samples[..<frames]) - reference, -10, accuracy: 0.05)
        XCTAssertEqual(level(samples[frames...]) - reference, -3, accuracy: 0.05)
    }
}
