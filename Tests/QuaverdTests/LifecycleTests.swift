import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// Start-up, D-Bus activation, one owner per bus, and clean exits.
final class LifecycleTests: XCTestCase {
    /// The activation file in dbus/, as shipped, with Exec pointed at the built binary (and a private home).
    func testActivationStartsTheDaemonOnTheFirstCall() throws {
        let services = try TemporaryDirectory(prefix: "quaver-services")
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/org.mpris.MediaPlayer2.quaver.service")
        let text = try String(contentsOf: shipped, encoding: .utf8)
        XCTAssertTrue(text.contains("Name=org.mpris.MediaPlayer2.quaver\n"))
        let exec = "Exec=/usr/bin/env HOME=\(home.path) XDG_CACHE_HOME=\(home.path)/cache "
            + "XDG_STATE_HOME=\(home.path)/state XDG_CONFIG_HOME=\(home.path)/config "
            + "\(RunningDaemon.executable) --output \"fakesink sync=true\""
        let rewritten = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("Exec=") ? exec : String($0) }.joined(separator: "\n")
        try rewritten.write(to: services.url.appendingPathComponent("org.mpris.MediaPlayer2.quaver.service"),
                            atomically: true, encoding: .utf8)

        let bus = try PrivateBus(serviceDirectories: [services.path])
        let client = try Connection(address: bus.address)
        XCTAssertFalse(RunningDaemon.hasOwner(client))
        let reply = try client.call(destination: ControlAPI.busName, path: RunningDaemon.path,
                                    interface: "org.freedesktop.DBus.Properties", method: "Get",
                                    arguments: [.string(ControlAPI.rootInterface), .string("Identity")], timeout: 30)
        XCTAssertEqual(reply.first?.unwrapped, .string("Quaver"))
        // Started by the bus, not by us: stop it by the PID the bus reports.
        let pid = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                  interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                  arguments: [.string(ControlAPI.busName)])[0].int64Value
        let daemonPID = try XCTUnwrap(pid.map { pid_t($0) })
        XCTAssertEqual(kill(daemonPID, SIGTERM), 0)
        XCTAssertTrue(eventually(timeout: 10) { kill(daemonPID, 0) != 0 || !RunningDaemon.hasOwner(client) })
        client.close()
    }

    func testASecondDaemonExitsWithOneClearLine() throws {
        let daemon = try RunningDaemon()
        let result = try ChildProcess.run(RunningDaemon.executable, ["--output", "fakesink sync=true"],
                                          environment: RunningDaemon.environment(bus: daemon.bus, home: daemon.home),
                                          timeout: 20)
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("org.mpris.MediaPlayer2.quaver is already owned"), result.stderr)
        daemon.assertIntact(tracks: [])
    }

    func testQuitAndSIGTERMExitCleanly() throws {
        let first = try RunningDaemon()
        try first.call("Quit", on: ControlAPI.rootInterface)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0, first.process.standardError)
        let second = try RunningDaemon([try Media.longTone().path], bus: first.bus)
        try second.call("Play")
        second.process.send(SIGTERM)
        XCTAssertEqual(second.process.waitForExit(timeout: 10), 0, second.process.standardError)
        XCTAssertFalse(RunningDaemon.hasOwner(second.client))
    }

    func testNameIsOwnedWithAnEmptyQueue() throws {
        let daemon = try RunningDaemon()
        XCTAssertEqual(try daemon.get("PlaybackStatus").stringValue, "Stopped")
        XCTAssertEqual(try daemon.get("CanPlay").boolValue, false)
        XCTAssertEqual(try daemon.get("Identity", ControlAPI.rootInterface).stringValue, "Quaver")
        XCTAssertEqual(try daemon.get("DesktopEntry", ControlAPI.rootInterface).stringValue, "quaver")
        XCTAssertEqual(try daemon.get("SupportedUriSchemes", ControlAPI.rootInterface).stringArrayValue, ["file", "http", "https"])
        let types = try daemon.get("SupportedMimeTypes", ControlAPI.rootInterface).stringArrayValue ?? []
        for type in ["audio/x-flac", "audio/mpeg", "application/ogg"] { XCTAssertTrue(types.contains(type), type) }
    }
}
