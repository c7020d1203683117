import PlayerCore
import TestSupport
import XCTest

/// A sound server that goes away under a playing engine and comes back (a PulseAudio crash and restart):
/// the engine reports an interruption, retries, and plays on from where it was, not from the start.
final class SoundServerRestartTests: XCTestCase {
    func testPlaybackResumesWhereItWasAfterTheSoundServerRestarts() throws {
        // Fixtures first: while a PulseAudio child runs, Foundation's Process misses later children's exits
        // (see SpawnedTool in TestSupport).
        let fixtures = try Fixtures.shared()
        let pulse = try PulseAudioServer()
        let engine = try GStreamerEngineFactory.make(sink: "pulsesink")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.flac.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 2)
        let before = seconds(engine.position)
        XCTAssertGreaterThan(before, 1, "playing through PulseAudio before the restart")

        try pulse.restart()
        recorder.wait(for: .outputLost(began: true), timeout: 15)
        recorder.wait(for: .outputLost(began: false), timeout: 20)
        let resumedAt = seconds(engine.position)
        XCTAssertEqual(resumedAt, before, accuracy: 1.5, "playback resumed where it was")
        // The new server's null sink starts slowly (docs/platform.md, "Sound server": ~1.2 s), so allow it a few seconds.
        var after = resumedAt
        for _ in 0..<10 where after < resumedAt + 1 {
            runLoop(for: 0.5)
            after = seconds(engine.position)
        }
        XCTAssertGreaterThan(after, resumedAt + 1, "position advances again after the restart")
        XCTAssertFalse(recorder.events.contains { if case .failed = $0 { return true } else { return false } },
                       "a sound-server restart is not a failed track")
        engine.stop()
    }
}
