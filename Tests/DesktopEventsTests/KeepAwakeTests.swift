import DBus
@testable import DesktopEvents
import EventLoop
import Foundation
import Logging
import PlayerCore
import TestSupport
import XCTest

/// Keeping the machine from idle suspend while playing, against stand-ins for the desktop portal, GNOME's
/// session manager and KDE's PowerManagement service on a private session bus, and a fake logind on a
/// private system bus: the real services need a whole desktop session and systemd as PID 1.
final class KeepAwakeTests: XCTestCase {
    var logind: FakeLogind!
    var sessionBus: PrivateBus!
    var services: FakePowerServices!
    var session: Connection!
    var system: Connection!
    var engine: FakeEngine!
    var player: Player!
    var events: DesktopEvents!

    static let all = ["gnome", "pm", "portal"]

    func start(idleAction: String = "suspend", keepAwake: Bool = true) throws {
        logind = try FakeLogind(idleAction: idleAction)
        sessionBus = try PrivateBus()
        services = try FakePowerServices(bus: sessionBus)
        session = try Connection(address: sessionBus.address)
        system = try Connection(address: logind.bus.address)
        (engine, player) = FakeEngine.stillPlayer()
        events = DesktopEvents(player: player, policies: DesktopPolicies(), log: Logger(label: "test"))
        try events.start(systemBus: system, sessionBus: session, keepAwakeWhilePlaying: keepAwake) {}
        _ = player.add(["file:///a.flac"])
    }

    override func tearDown() {
        events?.stop()
        events = nil
        session?.close()
        system?.close()
    }

    private var idleLocks: Int {
        logind.log.filter { $0.hasPrefix("inhibit idle") }.count - logind.log.filter { $0 == "released idle" }.count
    }

    /// Plays and waits until every service holds an inhibitor; returns how long that took.
    @discardableResult
    private func playUntilHeld(idleLock: Bool = true) -> Double {
        let started = Date()
        player.play()
        XCTAssertTrue(pump(until: { self.services.held == Self.all && self.idleLocks == (idleLock ? 1 : 0) }, timeout: 10),
                      "\(services.log) \(logind.log)")
        return Date().timeIntervalSince(started)
    }

    /// Waits (1 s at most: the promise) until nothing is held any more; returns how long that took.
    @discardableResult
    private func waitUntilDropped(_ what: String) -> Double {
        let started = Date()
        XCTAssertTrue(pump(until: { self.services.held.isEmpty && self.idleLocks == 0 }, timeout: 1),
                      "still held after \(what): \(services.log) \(logind.log)")
        return Date().timeIntervalSince(started)
    }

    func testPlayTakesSuspendInhibitorsOnlyAndPauseDropsThem() throws {
        try start()
        XCTAssertEqual(services.held, [])
        let taken = playUntilHeld()
        let dropped = { self.player.pause(); return self.waitUntilDropped("Pause") }()
        print("keep-awake: Play → all held in \(String(format: "%.1f", taken * 1000)) ms, "
              + "Pause → all dropped in \(String(format: "%.1f", dropped * 1000)) ms")
        let inhibits = services.log.filter { $0.contains(" inhibit ") }
        XCTAssertEqual(inhibits.sorted(), ["gnome inhibit flags=4 app=Quaver", "pm inhibit app=Quaver",
                                           "portal inhibit flags=4 reason=Playing music"])
        XCTAssertTrue(logind.log.contains("inhibit idle Quaver 'Playing music' block"), "\(logind.log)")
        XCTAssertFalse(logind.log.contains { $0.hasPrefix("inhibit idle") && !$0.hasSuffix(" block") })
        XCTAssertFalse(services.log.contains { $0.contains("release of an unknown") }, "\(services.log)")
    }

    func testStopAndTheEndOfTheQueueDropThem() throws {
        try start()
        playUntilHeld()
        player.stop()
        waitUntilDropped("Stop")
        playUntilHeld()
        engine.finishCurrentTrack()
        XCTAssertTrue(pump(until: { self.player.status == .stopped }, timeout: 5))
        waitUntilDropped("the end of the queue")
    }

    func testServicesThatRestartAreAskedAgain() throws {
        try start()
        playUntilHeld()
        try services.restart()
        XCTAssertTrue(pump(until: { self.services.held == Self.all }, timeout: 10), "\(services.log)")
        player.pause()
        waitUntilDropped("Pause after the restart")
        XCTAssertFalse(services.log.contains { $0.contains("release of an unknown") }, "\(services.log)")
    }

    func testLogindIsAskedOnlyWhereItsIdleActionSuspends() throws {
        try start(idleAction: "ignore")
        playUntilHeld(idleLock: false)
        pump(until: { false }, timeout: 0.3)
        XCTAssertFalse(logind.log.contains { $0.hasPrefix("inhibit idle") }, "\(logind.log)")
    }

    func testSwitchedOffNothingIsTaken() throws {
        try start(keepAwake: false)
        player.play()
        engine.deliverEvents()
        pump(until: { false }, timeout: 0.5)
        XCTAssertEqual(services.log.filter { $0.contains(" inhibit ") }, [])
        XCTAssertFalse(logind.log.contains { $0.hasPrefix("inhibit idle") })
    }
}
