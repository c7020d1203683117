import EventLoop
import Foundation
import StateStore
import TestSupport
import XCTest

final class StateSaverTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var file: StateFile!
    private var volume = 0.0
    private var queueLength = 0
    private var current: Int?
    private var position: Int64 = 0
    private var snapshots = 0
    private var errors: [String] = []

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "quaver-saver")
        file = StateFile(url: folder.url.appendingPathComponent("state.json"))
    }

    private func makeSaver(file: StateFile? = nil) -> StateSaver {
        StateSaver(file: file ?? self.file, interval: 1, snapshot: { [unowned self] in
            snapshots += 1
            return StateSnapshot(SavedState(queue: (0..<queueLength).map { SavedTrack(uri: "file:///m/\($0).flac") },
                                            currentIndex: current, positionMicroseconds: position, volume: volume))
        }, onError: { [unowned self] in errors.append("\($0)") })
    }

    /// Runs the loop for `seconds` whatever happens.
    private func runLoop(_ seconds: Double) {
        EventLoop.main.run(until: { false }, timeout: seconds)
    }

    func testABurstOfChangesGivesOneWriteWithTheLatestState() throws {
        let saver = makeSaver()
        let firstMark = Date()
        for round in 1...10 {
            for step in 1...10 {
                volume = Double(round * 10 + step) / 1000
                saver.markChanged()
            }
            runLoop(0.05)  // the point: the burst is spread over half a second, within the saver's interval
        }
        XCTAssertTrue(saver.hasPendingChanges)
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 1 }, timeout: 10))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(firstMark), 0.9, "a timer of 1 s cannot fire earlier")
        XCTAssertFalse(saver.hasPendingChanges)
        XCTAssertTrue(waitForSavedVolume(0.11))
        runLoop(1.5)  // the point: nothing may happen (a second write would come within the 1 s interval)
        XCTAssertEqual(snapshots, 1, "no change after the write: no second write")
        XCTAssertEqual(errors, [])
    }

    func testAChangeAfterAWriteGetsItsOwnWrite() {
        let saver = makeSaver()
        saver.markChanged()
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 1 }, timeout: 10))
        volume = 0.7
        saver.markChanged()
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 2 }, timeout: 10))
        XCTAssertTrue(waitForSavedVolume(0.7))
    }

    /// The write happens on the saver's queue after the snapshot (no loop event to wait for, so this polls);
    /// the rename makes the file appear whole.
    private func waitForSavedVolume(_ expected: Double) -> Bool {
        eventually(timeout: 10) { self.file.load().state?.volume == expected }
    }

    func testFlushNowWaitsForAWriteUnderWayThenWritesTheLatest() throws {
        let saver = makeSaver()
        volume = 0.2
        queueLength = 100_000  // so the timed write is still encoding when the flush comes
        saver.markChanged()
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 1 }, timeout: 10))
        volume = 0.4
        queueLength = 0
        saver.markChanged()
        try saver.flushNow()
        XCTAssertEqual(file.load().state?.volume, 0.4)
        usleep(2_000_000)  // the point: nothing may land later; a 100 000-track write not waited for would by now
        XCTAssertEqual(file.load().state?.volume, 0.4, "the timed write (0.2) cannot land after the flush")
    }

    func testFlushNowWritesAtOnceAndReplacesThePendingWrite() throws {
        let saver = makeSaver()
        volume = 0.3
        saver.markChanged()
        try saver.flushNow()
        XCTAssertEqual(snapshots, 1)
        XCTAssertEqual(file.load().state?.volume, 0.3)
        XCTAssertFalse(saver.hasPendingChanges)
        runLoop(1.5)  // the point: the pending write was replaced, so none may come after the interval
        XCTAssertEqual(snapshots, 1)
    }

    /// Only where playing is changed: the queue is not written again, a position mark is, and loading
    /// gives the mark's track and position. A whole write after it makes the old mark stale.
    func testPositionChangesWriteOnlyAPositionMark() throws {
        let saver = makeSaver()
        queueLength = 3
        current = 0
        saver.markChanged()
        try saver.flushNow()
        let whole = try Data(contentsOf: file.url)
        current = 2
        position = 42_000_000
        saver.markPositionChanged()
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 2 }, timeout: 10))
        XCTAssertTrue(eventually(timeout: 5) { self.file.load().state?.positionMicroseconds == 42_000_000 })
        XCTAssertEqual(try Data(contentsOf: file.url), whole, "the state file itself is not written again")
        XCTAssertEqual(file.load().state?.currentIndex, 2)

        volume = 0.5
        position = 0
        saver.markChanged()
        try saver.flushNow()
        XCTAssertNotEqual(try Data(contentsOf: file.url), whole)
        XCTAssertEqual(file.load().state?.positionMicroseconds, 0, "the older mark no longer applies")
    }

    func testAMarkForAnotherStateOrOutsideTheQueueIsIgnored() throws {
        queueLength = 2
        current = 1
        position = 5_000_000
        try makeSaver().flushNow()
        let mark = { (revision: String, index: Int) in
            var state = SavedState(queue: [], currentIndex: index, positionMicroseconds: 9_000_000)
            state.revision = revision
            try self.file.savePosition(PositionMark(of: state, revision: revision))
        }
        try mark("another revision", 0)
        XCTAssertEqual(file.load().state?.positionMicroseconds, 5_000_000)
        try mark(try XCTUnwrap(file.load().state?.revision), 7)
        XCTAssertEqual(file.load().state?.currentIndex, 1, "index 7 is outside the queue of 2")
        try mark(try XCTUnwrap(file.load().state?.revision), 0)
        XCTAssertEqual(file.load().state?.currentIndex, 0)
        XCTAssertEqual(file.load().state?.positionMicroseconds, 9_000_000)
    }

    func testFlushNowWritesEvenWithoutAMark() throws {
        volume = 0.9
        try makeSaver().flushNow()
        XCTAssertEqual(file.load().state?.volume, 0.9)
    }

    /// After a failed write the next one is the whole state, even for a position change alone: a mark
    /// would name a revision that never reached the disk.
    func testAfterAFailedFlushTheNextWriteIsTheWholeState() throws {
        let blocker = folder.url.appendingPathComponent("blocker")
        try Data().write(to: blocker)  // a file where the state's folder should be
        let saver = makeSaver(file: StateFile(url: blocker.appendingPathComponent("state.json")))
        XCTAssertThrowsError(try saver.flushNow())
        try FileManager.default.removeItem(at: blocker)
        position = 7_000_000
        saver.markPositionChanged()
        let reloaded = StateFile(url: blocker.appendingPathComponent("state.json"))
        XCTAssertTrue(EventLoop.main.run(until: { self.snapshots == 2 }, timeout: 10))
        XCTAssertTrue(eventually(timeout: 5) { reloaded.load().state?.positionMicroseconds == 7_000_000 })
    }

    func testATimedWriteThatFailsIsReported() {
        let saver = makeSaver(file: StateFile(url: URL(fileURLWithPath: "/proc/quaver-test/state.json")))
        saver.markChanged()
        XCTAssertTrue(EventLoop.main.run(until: { !self.errors.isEmpty }, timeout: 10))
        XCTAssertTrue(errors[0].contains("/proc/quaver-test"), errors[0])
    }

    /// A slow whole-state write (a queue of 100 000) does not pile up further writes behind it while
    /// changes keep coming: one waits, with the latest state, and it comes after the slow one is done.
    func testChangesDuringASlowWriteGiveOneMoreWriteNotAPile() throws {
        let built = LockedCounter()
        let saver = StateSaver(file: file, interval: 0.2, snapshot: { [unowned self] in
            StateSnapshot(SavedState(volume: volume), queue: { each in
                built.increment()
                Thread.sleep(forTimeInterval: 1)  // the point: a slow write
                each(SavedTrack(uri: "file:///m/slow.flac"))
            })
        }, onError: { [unowned self] in errors.append("\($0)") })
        for step in 1...30 {
            volume = Double(step) / 100
            saver.markChanged()
            runLoop(0.1)  // the point: changes keep coming for 3 s
        }
        XCTAssertLessThanOrEqual(built.value, 3, "3 s of changes: the first write (1 s), one after it, at most one more")
        XCTAssertTrue(EventLoop.main.run(until: { self.file.load().state?.volume == 0.3 }, timeout: 15))
        XCTAssertTrue(EventLoop.main.run(until: { !saver.hasPendingChanges }, timeout: 10), "a write still waits")
        XCTAssertEqual(errors, [])
    }
}

/// Counts calls made on the writer's thread.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
