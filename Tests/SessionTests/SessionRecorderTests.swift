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
        let engine = FakeEngine()
        engine.timeScale = 0
        let player = Player(engine: engine)
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
}
