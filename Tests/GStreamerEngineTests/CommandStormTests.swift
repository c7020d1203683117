import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Commands faster than the pipeline can follow: loads, rate changes and seeks as a client sends them
/// flat out. The engine must neither crash nor lose the newest request.
final class CommandStormTests: XCTestCase {
    /// Loads interleaved with rate changes crashed the process within ~30 commands: scaletempo, reused
    /// after playbin went through NULL, read the queue it had freed when it stopped.
    func testLoadsInterleavedWithRateChangesDoNotCrash() throws {
        let (fixtures, engine, recorder) = try makeEngine()
        let files = [fixtures.flac, fixtures.mp3, fixtures.vorbis, fixtures.wav]
        for round in 0..<60 {
            engine.load(EngineItem(id: TrackID(UInt64(round + 1)), uri: files[round % files.count].absoluteString),
                        at: .zero, playing: true)
            engine.setRate([1.5, 0.5, 2.0, 1.0][round % 4])
            runLoop(for: 0.03)
        }
        engine.setRate(1.5)
        recorder.wait(for: .trackStarted(TrackID(60)), timeout: 10)
        let before = engine.position.map(seconds) ?? 0
        runLoop(for: 1)
        XCTAssertGreaterThan((engine.position.map(seconds) ?? 0) - before, 1.2, "plays on, at 1.5×")
        engine.stop()
    }

    /// A burst of seeks while one is in flight: one report, at the last target.
    func testABurstOfSeeksLandsOnceAtTheLastTarget() throws {
        let (fixtures, engine, recorder) = try makeEngine()
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.flac.absoluteString), at: .zero, playing: false)
        recorder.wait(for: .trackStarted(TrackID(1)))
        recorder.wait(for: "seekable") { if case .seekable(_, true) = $0 { return () } else { return nil } }
        let reportsBefore = seekReports(recorder)
        for (index, target) in [1.0, 7.0, 3.0, 8.0, 2.0, 6.0].enumerated() {
            engine.seek(to: .milliseconds(Int(target * 1000)), exact: true)
            if index == 2 { engine.setRate(2) }
        }
        let landed = recorder.waitForSeekCompleted()
        runLoop(for: 0.5)
        XCTAssertEqual(seconds(landed), 6, accuracy: 0.05)
        XCTAssertEqual(seekReports(recorder) - reportsBefore, 1, "one report for the burst")
        XCTAssertEqual(seconds(engine.position), 6, accuracy: 0.05)
        engine.stop()
    }

    /// A rate set while a file loads applies to it, even when its segment has already gone by.
    func testARateSetWhileLoadingApplies() throws {
        let (fixtures, engine, recorder) = try makeEngine()
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.wav.absoluteString), at: .zero, playing: true)
        runLoop(for: 0.01)
        engine.setRate(2)
        recorder.wait(for: .trackStarted(TrackID(1)))
        runLoop(for: 0.3)
        let start = seconds(engine.position)
        runLoop(for: 1)
        XCTAssertEqual(seconds(engine.position) - start, 2, accuracy: 0.35, "two seconds of sound per second")
        engine.stop()
    }

    /// An engine on a clocked fake sink, with a recorder of its events.
    private func makeEngine() throws -> (Fixtures, GStreamerEngine, EventRecorder) {
        let engine = try GStreamerEngineFactory.make(sink: "fakesink sync=true")
        let recorder = EventRecorder()
        engine.delegate = recorder
        return (try Fixtures.shared(), engine, recorder)
    }

    private func seekReports(_ recorder: EventRecorder) -> Int {
        recorder.events.filter { if case .seekCompleted = $0 { return true } else { return false } }.count
    }
}
