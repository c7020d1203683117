import ControlAPI
import EventLoop
import Foundation
import Logging
import PlayerCore
import Session
import StateStore
import TestSupport
import XCTest

/// The session adapter on a fake engine and a real state file: what a player holds is on disk about a
/// second after it changed, and a new player restored from the file holds it again.
final class SessionRecorderTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var file: StateFile!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "quaver-session")
        file = StateFile(url: folder.url.appendingPathComponent("state.json"))
    }

    func testAChangeIsSavedSoonAndRestoredIntoANewPlayer() throws {
        let (_, player) = FakeEngine.stillPlayer()
        let recorder = SessionRecorder(player: player, file: file, log: Logger(label: "test"))
        let ids = player.add(["file:///music/1.flac", "file:///music/2.flac", "file:///music/3.flac"])
        player.goTo(ids[1])
        try player.setVolume(0.25)
        player.setLoopMode(.playlist)
        XCTAssertTrue(EventLoop.main.run(until: { self.file.load().state?.queue.count == 3 }, timeout: 5),
                      "saved within a few seconds")
        recorder.finish()

        let restored = Player(engine: FakeEngine())
        let second = SessionRecorder(player: restored, file: file, log: Logger(label: "test"))
        second.restore(resumePaused: true)
        XCTAssertEqual(restored.tracks.map(\.uri), ["file:///music/1.flac", "file:///music/2.flac", "file:///music/3.flac"])
        XCTAssertEqual(restored.index(of: restored.currentTrackID!), 1)
        XCTAssertEqual(restored.volume, 0.25)
        XCTAssertEqual(restored.loopMode, .playlist)
        second.finish()
    }

    /// Saving at exit writes at once and waits: nothing is left for a timer that will never fire.
    func testSaveNowWritesBeforeReturning() throws {
        let player = Player(engine: FakeEngine())
        let recorder = SessionRecorder(player: player, file: file, log: Logger(label: "test"))
        player.add(["file:///music/a.ogg"])
        recorder.saveNow()
        XCTAssertEqual(file.load().state?.queue.map(\.uri), ["file:///music/a.ogg"])
        recorder.finish()
    }

    /// A state.json as Quaver 1911e80 wrote it (format version 1) restores with its tags and position.
    func testAStateFileOfTheEarlierLayoutRestores() throws {
        let json = #"{"version":1,"queue":[{"uri":"file:///m/a.flac","metadata":{"title":"A","artists":["X"],"#
            + #""album":"L","trackNumber":1,"lengthMicroseconds":90000000}},{"uri":"file:///m/b.flac"}],"#
            + #""currentIndex":1,"positionMicroseconds":5000000,"volume":0.5,"rate":1,"loopMode":"Track","#
            + #""shuffle":false,"wasPlaying":false,"revision":"r1"}"#
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: file.url)
        let player = Player(engine: FakeEngine())
        let recorder = SessionRecorder(player: player, file: file, log: Logger(label: "test"))
        recorder.restore(resumePaused: true)
        XCTAssertEqual(player.tracks.map(\.uri), ["file:///m/a.flac", "file:///m/b.flac"])
        XCTAssertEqual(player.tracks[0].title, "A")
        XCTAssertEqual(player.tracks[0].tags.artists, ["X"])
        XCTAssertEqual(player.tracks[0].tags.album, "L")
        XCTAssertEqual(player.tracks[0].duration, .seconds(90))
        XCTAssertEqual(player.index(of: player.currentTrackID!), 1)
        XCTAssertEqual(player.volume, 0.5)
        XCTAssertEqual(player.loopMode, .track)
        recorder.finish()
    }

    /// A long saved queue arrives after the loop has run (done is called then); the player answers empty meanwhile.
    func testALongStateIsRestoredInTheBackground() throws {
        let count = 8000
        var done = false
        let (player, recorder) = try restoringInBackground(count) { done = true }
        XCTAssertFalse(done, "a file of \(count) tracks is read off the loop")
        XCTAssertTrue(EventLoop.main.run(until: { done }, timeout: 20))
        XCTAssertEqual(player.queueLength, count)
        XCTAssertEqual(player.index(of: player.currentTrackID!), 77)
        XCTAssertEqual(player.tracks(in: 5..<6).first?.title, "Song 5")
        recorder.finish()
    }

    /// Exit before a background restore arrived: the restore is waited for, so the saved queue survives.
    func testSavingDuringABackgroundRestoreKeepsTheSavedQueue() throws {
        let count = 8000
        let (player, recorder) = try restoringInBackground(count) {}
        try player.setVolume(0.3)
        recorder.finish()
        let saved = try XCTUnwrap(file.load().state)
        XCTAssertEqual(saved.queue.count, count)
        XCTAssertEqual(saved.currentIndex, 77)
        XCTAssertEqual(player.queueLength, count)
    }

    /// Tracks queued before a background restore arrives stay, after the restored ones.
    func testTracksQueuedBeforeABackgroundRestoreStayAfterIt() throws {
        var done = false
        let (player, recorder) = try restoringInBackground(8000) { done = true }
        player.add(["file:///music/new.flac"])
        XCTAssertTrue(EventLoop.main.run(until: { done }, timeout: 20))
        XCTAssertEqual(player.queueLength, 8001)
        XCTAssertEqual(player.tracks(in: 8000..<8001).first?.uri, "file:///music/new.flac")
        XCTAssertEqual(player.tracks(in: 0..<1).first?.uri, "file:///music/0.flac")
        recorder.finish()
    }

    /// A saved queue longer than the daemon accepts (written by hand, or before the limit) is cut to the limit.
    func testASavedQueuePastTheLimitIsCutToIt() throws {
        var done = false
        let (player, recorder) = try restoringInBackground(InputLimits.maximumQueueLength + 5) { done = true }
        XCTAssertTrue(EventLoop.main.run(until: { done }, timeout: 60))
        XCTAssertEqual(player.queueLength, InputLimits.maximumQueueLength)
        XCTAssertEqual(player.index(of: player.currentTrackID!), 77)
        recorder.finish()
    }

    /// A saved state of `count` tracks, being restored in the background into a new player.
    private func restoringInBackground(_ count: Int, then done: @escaping () -> Void) throws
        -> (Player, SessionRecorder) {
        try file.save(savedState(count))
        let size = try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, SessionRecorder.largestStateRestoredAtOnce, "a file restored in the background")
        let player = Player(engine: FakeEngine())
        let recorder = SessionRecorder(player: player, file: file, log: Logger(label: "test"))
        recorder.restoreInBackground(resumePaused: true, then: done)
        XCTAssertEqual(player.queueLength, 0, "nothing restored in the turn that asked: the loop answers meanwhile")
        return (player, recorder)
    }

    private func savedState(_ count: Int) -> SavedState {
        let queue = (0..<count).map { number in
            SavedTrack(uri: "file:///music/\(number).flac", metadata: SavedMetadata(
                title: "Song \(number)", artists: ["Artist \(number % 7)"], album: "Album \(number / 10)",
                trackNumber: number % 10 + 1, lengthMicroseconds: 100_000_000))
        }
        return SavedState(queue: queue, currentIndex: 77)
    }
}
