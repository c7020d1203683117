@testable import DesktopEvents
import Logging
import PlayerCore
import TestSupport
import XCTest

/// What an automatic pause makes WaitingReason say: a removed output device is awaited as the output gone,
/// a call or a cork as an interruption.
final class AutomaticPauseReasonTests: XCTestCase {
    private func playingPlayer() -> (Player, FakeEngine) {
        let engine = FakeEngine()
        engine.timeScale = 0
        let player = Player(engine: engine)
        player.add(["file:///music/1.flac"])
        player.play()
        XCTAssertTrue(engine.deliverEvents())
        return (player, engine)
    }

    func testARemovedOutputIsAwaitedAsTheOutputGone() {
        let (player, _) = playingPlayer()
        let playback = AutomaticPlayback(player: player, log: Logger(label: "test"))
        XCTAssertTrue(playback.interrupt(.outputRemoved(sink: "usb")))
        XCTAssertEqual(player.waitingReason, .outputGone)
        XCTAssertTrue(playback.resume(.outputReturned(sink: "usb")))
        XCTAssertEqual(player.waitingReason, .none)
    }

    func testACallIsAnInterruption() {
        let (player, _) = playingPlayer()
        let playback = AutomaticPlayback(player: player, log: Logger(label: "test"))
        XCTAssertTrue(playback.interrupt(.callStarted))
        XCTAssertEqual(player.waitingReason, .interruption)
    }

    /// The stream corked for the call is not uncorked: the music plays on a new one, where the server puts it.
    func testTheCallsEndPlaysOnANewOutputStream() {
        let (player, engine) = playingPlayer()
        let playback = AutomaticPlayback(player: player, log: Logger(label: "test"))
        XCTAssertTrue(playback.interrupt(.callStarted))
        let earlier = engine.commands.count
        XCTAssertTrue(playback.resume(.callEnded))
        XCTAssertEqual(Array(engine.commands.dropFirst(earlier)), [.playOnNewOutput(device: nil)])
        XCTAssertEqual(player.status, .playing)
    }
}
