import DBus
import Foundation
import TestSupport
import XCTest

/// The desktop policies as quaverd wires them: logind (faked on a private bus handed over as the system bus)
/// and another MPRIS player, with the switches read from config.toml.
final class DesktopWiringTests: XCTestCase {
    func testSleepPausesSavesAndReleasesTheLockInThatOrder() throws {
        let logind = try FakeLogind()
        let tone = try Media.longTone()
        let daemon = try RunningDaemon([Media.uri(tone)], options: ["--output", "fakesink sync=true", "--play"],
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.bus.address])
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        daemon.waitUntil("a delay lock", { logind.log.contains { $0.hasPrefix("inhibit sleep") && $0.hasSuffix("delay") } })
        let control = try Connection(address: logind.bus.address)
        defer { control.close() }
        let stateFile = daemon.home.url.appendingPathComponent("state/quaver/state.json")
        try? FileManager.default.removeItem(at: stateFile)
        _ = try control.call(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                             interface: "org.quaver.FakeLogind", method: "Sleep", arguments: [.boolean(true)])
        daemon.waitUntil("the lock released", { logind.log.contains("released sleep") })
        XCTAssertEqual(daemon.status, "Paused")
        // Read at once: the coalesced save of the pause would come up to a second later, so a paused state on
        // disk now was written by the save that sleep runs before it lets the lock go.
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: stateFile)) as? [String: Any]
        XCTAssertNotEqual(saved?["wasPlaying"] as? Bool, true, "the state on disk at release is the paused one")
        _ = try control.call(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                             interface: "org.quaver.FakeLogind", method: "Sleep", arguments: [.boolean(false)])
        Thread.sleep(forTimeInterval: 0.5)  // the point: nothing may happen (a resume would have come by now)
        XCTAssertEqual(daemon.status, "Paused", "resume-after-wake is off by default")
    }

    /// The stand-ins are those of KeepAwakeTests (the real services need a desktop session and systemd).
    func testPlayingKeepsTheMachineAwakeUntilPausedOrKilled() throws {
        let logind = try FakeLogind(idleAction: "suspend")
        let bus = try PrivateBus()
        let services = try FakePowerServices(bus: bus)
        let daemon = try RunningDaemon([Media.uri(try Media.longTone())], bus: bus,
                                       options: ["--output", "fakesink sync=true", "--play"],
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.bus.address])
        let idleLocks = { logind.log.filter { $0.hasPrefix("inhibit idle") }.count - logind.log.filter { $0 == "released idle" }.count }
        daemon.waitUntil("every inhibitor", { services.held == ["gnome", "pm", "portal"] && idleLocks() == 1 })
        try daemon.call("Pause")
        daemon.waitUntil("none held after Pause", timeout: 1, { services.held.isEmpty && idleLocks() == 0 })
        try daemon.call("Play")
        daemon.waitUntil("every inhibitor again", { services.held == ["gnome", "pm", "portal"] && idleLocks() == 1 })
        daemon.process.send(SIGKILL)
        daemon.waitUntil("none held after a crash", { services.held.isEmpty && idleLocks() == 0 })
        XCTAssertEqual(services.log.filter { $0.hasSuffix("dropped with its client") }.count, 3, "\(services.log)")
    }

    func testAnotherPlayerPausesQuaverOnlyWhenConfigured() throws {
        XCTAssertEqual(try statusAfterAnotherPlayerStarts(configured: true), "Paused")
        XCTAssertEqual(try statusAfterAnotherPlayerStarts(configured: false), "Playing")
    }

    private func statusAfterAnotherPlayerStarts(configured: Bool) throws -> String? {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[interruptions]\npause-when-other-player-starts = \(configured)\n", home: home)
        let daemon = try RunningDaemon([Media.uri(try Media.longTone())], home: home,
                                       options: ["--output", "fakesink sync=true", "--play"])
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        let other = try ChildProcess("/usr/bin/python3", ["-c", FakeMPRISPlayer.script, "org.mpris.MediaPlayer2.other"],
                                     environment: daemon.bus.environment, logDirectory: home.url)
        daemon.waitUntil("the other player", timeout: 20, { other.standardOutput.contains("sent") })
        _ = eventually(timeout: 1) { daemon.status != "Playing" }
        return daemon.status
    }
}
