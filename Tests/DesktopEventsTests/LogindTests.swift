import DBus
@testable import DesktopEvents
import EventLoop
import Logging
import PlayerCore
import TestSupport
import XCTest

/// Suspend and session handling against a fake logind on a private bus, with the real D-Bus layer.
final class LogindTests: XCTestCase {
    var logind: FakeLogind!
    var connection: Connection!
    var engine: FakeEngine!
    var player: Player!
    var events: DesktopEvents!

    func start(_ policies: DesktopPolicies = DesktopPolicies()) throws {
        logind = try FakeLogind()
        connection = try Connection(address: logind.bus.address)
        (engine, player) = FakeEngine.stillPlayer()
        events = DesktopEvents(player: player, policies: policies, log: Logger(label: "test"))
        // The daemon's state saver: it tells the fake, so the fake's log orders it against the lock release.
        try events.start(systemBus: connection, sessionBus: nil) { [unowned self] in
            _ = try? self.connection.call(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                          interface: "org.quaver.FakeLogind", method: "Note",
                                          arguments: [.string("saved while \(self.player.status)")])
        }
        _ = player.add(["file:///a.flac"])
        player.play()
        engine.deliverEvents()
    }

    override func tearDown() {
        events?.stop()
        events = nil
        connection?.close()
    }

    private func waitFor(_ line: String, timeout: Double = 10) -> Bool {
        pump(until: { self.logind.log.contains(line) }, timeout: timeout)
    }

    func testPlayingHoldsADelayLockAndPausingReleasesIt() throws {
        try start()
        XCTAssertTrue(waitFor("inhibit sleep Quaver 'Pause music before sleep' delay"), "\(logind.log)")
        XCTAssertTrue(pump(until: { self.events.holdsSleepLock }, timeout: 5))
        player.pause()
        XCTAssertFalse(events.holdsSleepLock)
        XCTAssertTrue(waitFor("released sleep"), "\(logind.log)")
    }

    func testSleepPausesAndSavesBeforeReleasingTheLockAndWakingStaysPaused() throws {
        try start()
        XCTAssertTrue(pump(until: { self.events.holdsSleepLock }, timeout: 10), "\(logind.log)")
        logind.control(connection, "Sleep", [.boolean(true)])
        XCTAssertTrue(waitFor("released sleep"), "\(logind.log)")
        let log = logind.log
        let saved = log.firstIndex(of: "note saved while paused")
        let released = log.firstIndex(of: "released sleep")
        XCTAssertNotNil(saved, "\(log)")
        XCTAssertLessThan(saved ?? .max, released ?? -1, "the state must be saved, paused, before the lock goes: \(log)")
        XCTAssertEqual(player.status, .paused)

        logind.control(connection, "Sleep", [.boolean(false)])
        XCTAssertTrue(waitFor("prepare-for-sleep False"))
        pump(until: { false }, timeout: 0.3)
        XCTAssertEqual(player.status, .paused)
        XCTAssertFalse(events.holdsSleepLock)
        player.play()  // playing again takes a new lock
        XCTAssertTrue(pump(until: { self.logind.log.filter { $0.hasPrefix("inhibit") }.count == 2 }, timeout: 10))
    }

    func testResumeAfterWakeWhenConfigured() throws {
        var policies = DesktopPolicies()
        policies.resumeAfterWake = true
        try start(policies)
        XCTAssertTrue(pump(until: { self.events.holdsSleepLock }, timeout: 10))
        logind.control(connection, "Sleep", [.boolean(true)])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10))
        logind.control(connection, "Sleep", [.boolean(false)])
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10))
    }

    func testInactiveSessionPauses() throws {
        try start()
        XCTAssertTrue(pump(until: { self.events.holdsSleepLock }, timeout: 10))
        pump(until: { false }, timeout: 0.3)  // the session lookup is asynchronous
        logind.control(connection, "SetActive", [.boolean(true)])
        pump(until: { false }, timeout: 0.3)
        XCTAssertEqual(player.status, .playing)
        logind.control(connection, "SetActive", [.boolean(false)])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10))
    }

    func testWithoutLogindNothingHappens() throws {
        let bus = try PrivateBus()
        connection = try Connection(address: bus.address)
        engine = FakeEngine()
        player = Player(engine: engine)
        events = DesktopEvents(player: player, policies: DesktopPolicies(), log: Logger(label: "test"))
        try events.start(systemBus: connection, sessionBus: nil) {}
        _ = player.add(["file:///a.flac"])
        player.play()
        engine.deliverEvents()
        pump(until: { false }, timeout: 0.3)
        XCTAssertFalse(events.holdsSleepLock)
        XCTAssertEqual(player.status, .playing)
    }
}

/// Runs the loop until `condition` holds, with a tick so conditions about other processes are seen.
@discardableResult
func pump(until condition: () -> Bool, timeout: Double) -> Bool {
    let tick = EventLoop.main.schedule(after: 0.01, repeating: true) {}
    defer { tick.cancel() }
    return EventLoop.main.run(until: condition, timeout: timeout)
}
