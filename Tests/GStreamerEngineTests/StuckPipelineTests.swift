import Foundation
import GStreamer
@testable import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// A playbin whose streaming thread stops moving, as it does when GStreamer deadlocks inside playbin's
/// switch to the next item: a NULL or a flushing seek then waits for that thread's pad for ever, and the
/// daemon, whose loop asked for it, stopped answering. Here the thread is held on purpose: the output is
/// `identity ! fakesink`, and the identity is told to sleep 8 s at its next buffer, holding the stream
/// lock of the pad that feeds it. The engine must come back within its bound (2 s) with a new playbin,
/// and what was loaded must go on in it as the user asked.
final class StuckPipelineTests: XCTestCase {
    /// A seek into a stuck playbin: the item starts again in a new one, at the seek's target.
    func testASeekIntoAStuckPipelineLandsInANewOne() throws {
        let (fixtures, engine, recorder) = try makeEngine()
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.flac.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)))
        recorder.wait(for: "seekable") { if case .seekable(_, true) = $0 { return () } else { return nil } }
        runLoop(for: 0.3)
        let stuck = try stall(engine)
        let started = Date()
        engine.seek(to: .seconds(5), exact: true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "the seek returned within the bound")
        XCTAssertFalse(engine.pipeline?.playbin === stuck.playbin, "a new playbin")
        let landed = recorder.waitForSeekCompleted()
        XCTAssertEqual(seconds(landed), 5, accuracy: 0.1)
        runLoop(for: 1)
        XCTAssertGreaterThan(seconds(engine.position), 5.6, "plays on from there in the new playbin")
        XCTAssertEqual(recorder.events.filter { $0 == .trackStarted(TrackID(1)) }.count, 1,
                       "the same track, not a new one: \(recorder.events)")
        XCTAssertFalse(recorder.events.contains { if case .failed = $0 { return true } else { return false } })
        stuck.release()
        engine.stop()
    }

    /// A stop (and the next load) while the playbin is stuck: both return at once, and the next item plays.
    func testAStopOnAStuckPipelineReturnsAndTheNextLoadPlays() throws {
        let (fixtures, engine, recorder) = try makeEngine()
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.flac.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 0.3)
        let stuck = try stall(engine)
        let started = Date()
        engine.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "the stop returned within the bound")
        engine.load(EngineItem(id: TrackID(2), uri: fixtures.wav.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(2)))
        runLoop(for: 1)
        XCTAssertGreaterThan(seconds(engine.position), 0.6, "the next item plays")
        stuck.release()
        engine.stop()
    }

    /// The playbin playing now, whose streaming thread sleeps from its next buffer on.
    private struct Stall {
        let playbin: Element
        let identity: Element
        /// Lets the old playbin's thread go, so that it comes back and is let go from NULL.
        func release() { identity.set("sleep-time", "0") }
    }

    private func stall(_ engine: GStreamerEngine) throws -> Stall {
        let pipeline = try XCTUnwrap(engine.pipeline, "the load built the pipeline")
        let identity = try XCTUnwrap(pipeline.output.child(named: "stall"))
        identity.set("sleep-time", "8000000")
        runLoop(for: 0.3)  // a buffer reaches it (fakesink's 1 s of sound is not buffered: sync=true)
        return Stall(playbin: pipeline.playbin, identity: identity)
    }

    private func makeEngine() throws -> (Fixtures, GStreamerEngine, EventRecorder) {
        let engine = try GStreamerEngineFactory.make(sink: "identity name=stall ! fakesink sync=true")
        let recorder = EventRecorder()
        engine.delegate = recorder
        return (try Fixtures.shared(), engine, recorder)
    }
}
