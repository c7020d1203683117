import Foundation
import GStreamer
@testable import GStreamerEngine
import PlayerCore
import Synchronization
import TestSupport
import XCTest

/// What waits on what while playbin switches to the next item on its streaming thread, and what it is given.
final class SwitchWaitTests: XCTestCase {
    /// The engine's delegate (held weakly by it), kept for the test's length.
    private let recorder = EventRecorder()

    /// At about-to-finish the streaming thread waits briefly for the next file's check (`NextItemCheck`) while it
    /// holds the stream lock of the draining item's pads. A seek the loop asks for meanwhile needs that lock:
    /// it, and the D-Bus caller behind it, used to wait out the whole wait (0.5 s: every answer over 0.3 s in
    /// `scripts/soak --mode failing`). Here the check never ends by itself: the next file is a FIFO, whose
    /// opening blocks the check until someone writes to it.
    func testASeekWhileTheSwitchWaitsForTheNextFilesCheckAnswersAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-switch-wait")
        let fifo = directory.url.appendingPathComponent("next.flac")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // about-to-finish comes while the short track plays, and again after each seek near its end.
        let engine = try playShortTrack(thenPrepare: fifo)
        var slowest = 0.0
        for _ in 0..<15 {
            runLoop(for: 0.1)
            let started = Date()
            engine.seek(to: .milliseconds(1500), exact: false)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        letReadersGo(fifo)  // the check reads an empty file
        engine.stop()
        XCTAssertLessThan(slowest, 0.25, "the slowest of 15 seeks near the end, in seconds")
    }

    /// playbin answers queries under its own lock, which its switch to the next item holds while it starts the
    /// next file: a file slow to open (on a hung network mount) holds it for as long. Here the switch is held
    /// by a `source-setup` handler that sleeps, which playbin calls with that lock taken. Position is asked of
    /// the output, which does not take that lock: a desktop polling it is answered at once, and the playbin
    /// is not given up for a read.
    func testPositionIsReadAtOnceWhileTheSwitchHoldsPlaybin() throws {
        let engine = try playShortTrack(thenPrepare: try Fixtures.shared().sweepHalvesWAV.1)
        let holding = Mutex(false)
        let playbin = try XCTUnwrap(engine.pipeline?.playbin, "the load built the pipeline")
        let hold = playbin.connect("source-setup") { _ in  // the next item's source, in the switch
            holding.withLock { $0 = true }
            Thread.sleep(forTimeInterval: 2.5)
        }
        let deadline = Date().addingTimeInterval(5)
        while !holding.withLock({ $0 }), Date() < deadline { runLoop(for: 0.02) }
        XCTAssertTrue(holding.withLock { $0 }, "the switch to the next item began")
        let started = Date()
        let position = engine.position
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.2, "seconds to read the position")
        XCTAssertGreaterThan(seconds(position), 1)
        XCTAssertTrue(engine.pipeline?.playbin === playbin, "not given up for a read")
        runLoop(for: 2.5)
        hold.cancel()
        engine.stop()
    }

    /// A next file written to after its check is not handed to playbin's switch (where a file that fails
    /// deadlocks GStreamer now and then): the track ends, and the next is left to an ordinary load.
    func testANextFileWrittenToAfterItsCheckIsNotSwitchedTo() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-switch-changed")
        let next = directory.url.appendingPathComponent("next.wav")
        try FileManager.default.copyItem(at: try Fixtures.shared().sweepHalvesWAV.1, to: next)
        let engine = try playShortTrack(thenPrepare: next)
        runLoop(for: 0.2)  // the next file's check has passed
        try Data("not sound any more".utf8).write(to: next)
        recorder.wait(for: .endOfStream(TrackID(1)))
        engine.stop()
        XCTAssertFalse(recorder.events.contains(.trackStarted(TrackID(2))), "\(recorder.events)")
        XCTAssertFalse(recorder.events.contains { if case .failed = $0 { return true } else { return false } },
                       "nothing failed inside the switch: \(recorder.events)")
    }

    /// An engine playing 2.3 s of sound, with `next` prepared after it.
    private func playShortTrack(thenPrepare next: URL) throws -> GStreamerEngine {
        let engine = try GStreamerEngineFactory.make(sink: "fakesink sync=true")
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: try Fixtures.shared().sweepHalvesWAV.0.absoluteString),
                    at: .zero, playing: true)
        engine.prepareNext(EngineItem(id: TrackID(2), uri: next.absoluteString))
        recorder.wait(for: .trackStarted(TrackID(1)))
        return engine
    }

    /// Opens `fifo` for writing and closes it, so that whoever waits to open it for reading reads an empty
    /// file; false when nobody was waiting.
    @discardableResult
    private func letReadersGo(_ fifo: URL) -> Bool {
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
        guard writer >= 0 else { return false }
        close(writer)
        return true
    }
}
