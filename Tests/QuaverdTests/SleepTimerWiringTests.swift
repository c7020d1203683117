import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// The sleep timer in the real quaverd: set through the CLI and D-Bus, shown by `quaver status`, pausing
/// (not stopping) at expiry with the volume and position kept, and kept across a restart in the state file.
final class SleepTimerWiringTests: XCTestCase {
    private func start(home: TemporaryDirectory? = nil, play: Bool = true) throws -> RunningDaemon {
        let home = try home ?? TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[playback]\nsleep-fade-seconds = 1\nresume-paused = false\n", home: home)
        return try RunningDaemon([Media.uri(try Media.longTone())], home: home,
                                 options: ["--output", "fakesink sync=true"] + (play ? ["--play"] : []))
    }

    private func quaver(_ daemon: RunningDaemon, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let withBus = [arguments[0], "--bus-address", daemon.bus.address] + arguments.dropFirst()
        return try ChildProcess.run(productsDirectory.appendingPathComponent("quaver").path, withBus,
                                    environment: daemon.bus.environment, timeout: 20)
    }

    private func sleepTimer(_ daemon: RunningDaemon) -> (String, Int64)? {
        guard let fields = try? daemon.get("SleepTimer", ControlAPI.quaverInterface).arrayValue, fields.count == 2,
              let mode = fields[0].stringValue, let seconds = fields[1].int64Value else { return nil }
        return (mode, seconds)
    }

    func testATimedSleepPausesAndKeepsVolumeAndPosition() throws {
        let daemon = try start()
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        var signalled: [DBusValue] = []
        let subscription = try daemon.client.subscribe(rule: MatchRule(interface: ControlAPI.propertiesInterface,
                                                                      member: "PropertiesChanged", arg0: ControlAPI.quaverInterface)) {
            if let changed = $0.arguments[1].dictionaryValue?["SleepTimer"] { signalled.append(changed.unwrapped) }
        }
        defer { subscription.cancel() }
        let set = try quaver(daemon, "sleep", "3s")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.hasPrefix("sleep in 0:0"), set.stdout)
        XCTAssertTrue(try quaver(daemon, "status").stdout.contains("(sleep in 0:0"))
        XCTAssertTrue(try quaver(daemon, "status", "--json").stdout.contains(#""sleep_timer":"time","sleep_seconds":"#))
        XCTAssertTrue(EventLoop.main.run(until: { !signalled.isEmpty }, timeout: 5), "PropertiesChanged carries SleepTimer when set")
        let setAt = Date()
        daemon.waitUntil("the timer's pause", timeout: 10, { daemon.status == "Paused" })
        print("sleep timer: 3 s timer paused after \(String(format: "%.2f", Date().timeIntervalSince(setAt))) s")
        XCTAssertEqual(sleepTimer(daemon)?.0, "off")
        XCTAssertEqual(try daemon.get("Volume").doubleValue, 1, "Volume itself never moves")
        XCTAssertGreaterThan(daemon.positionSeconds, 2, "paused where it was, not stopped")
        XCTAssertEqual(try daemon.get("PlaybackStatus").stringValue, "Paused")
    }

    func testBadRequestsAreRefusedAndChangeNothing() throws {
        let daemon = try start()
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        XCTAssertNotEqual(try quaver(daemon, "sleep", "soon").status, 0)
        for (mode, seconds) in [("later", Int64(5)), ("time", 0), ("time", -5), ("time", Int64.max)] {
            XCTAssertThrowsError(try daemon.call("SetSleepTimer", [.string(mode), .int64(seconds)], on: ControlAPI.quaverInterface)) {
                XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
            }
        }
        XCTAssertEqual(sleepTimer(daemon)?.0, "off")
        XCTAssertEqual(daemon.status, "Playing")
    }

    func testTheTimerSurvivesARestart() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        var daemon: RunningDaemon? = try start(home: home)
        daemon?.waitUntil("playing", { daemon?.status == "Playing" })
        XCTAssertEqual(try quaver(daemon!, "sleep", "1h15m").stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "sleep in 1:15:00")
        daemon?.process.stop()
        daemon = nil
        daemon = try start(home: home, play: false)
        daemon?.waitUntil("the restored timer", { self.sleepTimer(daemon!)?.0 == "time" })
        let left = sleepTimer(daemon!)?.1 ?? 0
        XCTAssertTrue((4400...4500).contains(left), "\(left) s left")

        XCTAssertEqual(try quaver(daemon!, "sleep", "end-of-track").status, 0)
        daemon?.process.stop()
        daemon = nil
        daemon = try start(home: home, play: false)
        daemon?.waitUntil("the restored end-of-track", { self.sleepTimer(daemon!)?.0 == "end-of-track" })
        XCTAssertEqual(try quaver(daemon!, "sleep", "off").stdout, "sleep timer off\n")
    }
}
