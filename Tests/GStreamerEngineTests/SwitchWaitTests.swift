import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// At about-to-finish, playbin's streaming thread waits briefly for the next file's check (`NextItemCheck`)
/// while it holds the stream lock of the draining item's pads. A seek the loop asks for meanwhile needs that
/// lock: it, and the D-Bus caller behind it, used to wait out the whole wait (0.5 s: every answer over 0.3 s
/// in `scripts/soak --mode failing`). Here the check never ends by itself: the next file is a FIFO, whose
/// opening blocks the check until someone writes to it.
final class SwitchWaitTests: XCTestCase {
    func testASeekWhileTheSwitchWaitsForTheNextFilesCheckAnswersAtOnce() throws {
        let fixtures = try Fixtures.shared()
        let directory = try TemporaryDirectory(prefix: "quaver-switch-wait")
        let fifo = directory.url.appendingPathComponent("next.flac")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let engine = try GStreamerEngineFactory.make(sink: "fakesink sync=true")
        let recorder = EventRecorder()
        engine.delegate = recorder
        // 2.3 s of sound: about-to-finish comes while it plays, and again after each seek near its end.
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.sweepHalvesWAV.0.absoluteString), at: .zero, playing: true)
        engine.prepareNext(EngineItem(id: TrackID(2), uri: fifo.absoluteString))
        recorder.wait(for: .trackStarted(TrackID(1)))
        var slowest = 0.0
        for _ in 0..<15 {
            runLoop(for: 0.1)
            let started = Date()
            engine.seek(to: .milliseconds(1500), exact: false)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        // Lets the check go: a writer opens the FIFO and closes it, so the check reads an empty file.
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        engine.stop()
        XCTAssertLessThan(slowest, 0.25, "the slowest of 15 seeks near the end, in seconds")
    }
}
