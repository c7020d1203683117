import DBus
import DesktopEvents
import Logging
import PlayerCore
import TestSupport
import XCTest

/// A second MPRIS player (python3-dbus) switching to Playing, and playerctld re-sending it.
final class OtherPlayerTests: XCTestCase {
    private func run(policy: Bool, playerName: String) throws -> PlaybackStatus {
        let bus = try PrivateBus()
        let connection = try Connection(address: bus.address)
        let engine = FakeEngine()
        engine.timeScale = 0
        let player = Player(engine: engine)
        var policies = DesktopPolicies()
        policies.pauseWhenOtherPlayerStarts = policy
        let events = DesktopEvents(player: player, policies: policies, log: Logger(label: "test"))
        try events.start(systemBus: nil, sessionBus: connection) {}
        defer { events.stop() }
        _ = player.add(["file:///a.flac"])
        player.play()
        engine.deliverEvents()
        pump(until: { false }, timeout: 0.2)  // the match rules reach the bus
        let other = try ChildProcess("/usr/bin/python3", ["-c", FakeMPRISPlayer.script, playerName],
                                     environment: bus.environment, logDirectory: bus.directory.url)
        XCTAssertTrue(pump(until: { other.standardOutput.contains("sent") }, timeout: 20), other.standardError)
        pump(until: { player.status != .playing }, timeout: 1)
        return player.status
    }

    func testAnotherPlayerStartingPausesWhenTheOptionIsOn() throws {
        XCTAssertEqual(try run(policy: true, playerName: "org.mpris.MediaPlayer2.other"), .paused)
    }

    func testAnotherPlayerStartingIsIgnoredWhenTheOptionIsOff() throws {
        XCTAssertEqual(try run(policy: false, playerName: "org.mpris.MediaPlayer2.other"), .playing)
    }

    func testPlayerctldIsIgnored() throws {
        XCTAssertEqual(try run(policy: true, playerName: "org.mpris.MediaPlayer2.playerctld"), .playing)
    }
}
