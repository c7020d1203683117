import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// quaverd's own connection to the sound server, and libpulse with it, is made when something first needs it: the
/// first load of a track, a client reading `Outputs` or calling `SetOutput` (docs/sound-servers.md). A daemon that
/// has done none of these holds neither (docs/reliability.md, "Memory at rest"); once made, everything the other
/// desktop tests check works as before. The real quaverd on a headless PulseAudio, started with nothing to play.
final class SoundServerOnDemandTests: OutputChoiceChecks {
    override func makeServer() throws -> SoundServerRig { try PulseAudioServer() }

    /// At rest: a fresh home (nothing saved, so nothing restored) and no item on the command line.
    override func startDaemon() throws {
        let environment = bus.daemonEnvironment(home: home.path).merging(sound.environment.filter { $0.key == "PULSE_SERVER" }) { $1 }
        daemon = try SpawnedTool([productsDirectory.appendingPathComponent("quaverd").path, "--output", "pulsesink"],
                                 environment: environment, output: home.path + "/quaverd.out", errors: home.path + "/quaverd.err")
        XCTAssertTrue(eventually(timeout: 20) { self.status == "Stopped" || !self.daemon.isRunning }, "quaverd did not answer: \(daemonLog)")
    }

    /// Whether libpulse (through its GLib main-loop adapter, which only our connection uses) is in quaverd's maps.
    var libpulseLoaded: Bool {
        let maps = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.pid)/maps")).readToEnd()) ?? Data()
        return String(decoding: maps, as: UTF8.self).contains("libpulse-mainloop-glib")
    }

    /// Whether the sound server lists quaverd's own client (not pulsesink's stream: "Quaver desktop events").
    var connected: Bool { ((try? sound.pactl(["list", "clients"]).stdout) ?? "").contains("\"Quaver desktop events\"") }

    /// Fails on a daemon that connects at start: the client appears within milliseconds, and libpulse is linked.
    func testNoConnectionNorLibpulseUntilTheFirstLoad() throws {
        XCTAssertFalse(libpulseLoaded, "libpulse mapped at rest")
        XCTAssertFalse(eventually(timeout: 2) { self.connected }, "connected at rest")
        try openTone()
        assertPlaysOn("after OpenUri")
        XCTAssertTrue(libpulseLoaded)
        XCTAssertTrue(eventually(timeout: 10) { self.connected }, "not connected after the first load")
        let module = try loadSink("c")  // the connection follows sinks as before
        try sound.pactl(["unload-module", module])
        XCTAssertTrue(eventually(timeout: 10) { !self.outputs.contains { $0.name == "c" } }, "\(outputs)")
    }

    /// A call that began before the first load is not an interruption of the music started during it, as on a
    /// daemon connected all along. The cork is off, so only the call watcher could pause. Fails when the first
    /// connection's list is acted on: paused within a second of the load.
    func testACallRunningBeforeTheFirstLoadDoesNotPauseIt() throws {
        daemon = nil
        let settings = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try "[interruptions]\npause-on-cork = false\n".write(to: settings.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        try startDaemon()
        let call = try sound.paplay(["--property=media.role=phone", try sound.tone(seconds: 60, named: "call.wav").path])
        defer { call.stop() }
        XCTAssertTrue(eventually(timeout: 10) { (try? self.sound.playbackStreams())?.contains { $0.properties["media.role"] == "phone" } == true })
        try openTone()
        assertPlaysOn("during the call")
        XCTAssertFalse(eventually(timeout: 3) { self.status == "Paused" }, "paused by a call that began before: \(daemonLog)")
    }

    private func openTone() throws {
        let tone = try sound.tone(seconds: 60, named: "tone.flac")
        _ = try client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                            interface: "org.mpris.MediaPlayer2.Player", method: "OpenUri", arguments: [.string(tone.absoluteString)])
    }

    /// Fails without the wait for the server's list: the sink `a` was unknown to a daemon that had not connected.
    func testSetOutputAtRestKnowsTheSinks() throws {
        try quaver("SetOutput", [.string("a")])
        XCTAssertEqual(quaverProperty("ChosenOutput")?.stringValue, "a")
        XCTAssertThrowsError(try quaver("SetOutput", [.string("no such sink")])) {
            XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
        XCTAssertEqual(quaverProperty("ChosenOutput")?.stringValue, "a")
        XCTAssertTrue(libpulseLoaded)
    }

    /// The first read asks for the connection; the list follows in PropertiesChanged, and `quaver output` waits for it.
    func testOutputsAskedAtRestAreListedAndSignalled() throws {
        var signalled: [[String]] = []
        let subscription = try recordSignalledOutputs { signalled.append($0) }
        defer { subscription.cancel() }
        _ = outputs
        XCTAssertTrue(pump(until: { signalled.last?.contains("a") == true }, timeout: 10), "\(signalled)")
        XCTAssertEqual(outputs.map(\.name), ["a"])
    }

    /// A status bar polling `quaver status` (a GetAll of `org.quaver.Quaver1`, `Outputs` among its values) loads
    /// nothing; asking for `Outputs` by name does. Fails when a GetAll asks for the connection: libpulse is mapped
    /// before the GetAll is answered.
    func testStatusAtRestLoadsNoLibpulse() throws {
        let status = try ChildProcess.run(productsDirectory.appendingPathComponent("quaver").path,
                                          ["status", "--json", "--bus-address", bus.address], environment: bus.environment, timeout: 20)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("\"Stopped\""), status.stdout)
        let all = try client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                                  interface: "org.freedesktop.DBus.Properties", method: "GetAll",
                                  arguments: [.string("org.quaver.Quaver1")], timeout: 5).first?.dictionaryValue
        XCTAssertEqual(all?["Outputs"]?.unwrapped.arrayValue?.count, 0, "\(String(describing: all))")
        XCTAssertFalse(libpulseLoaded, "libpulse mapped by a GetAll")
        _ = quaverProperty("Outputs")
        XCTAssertTrue(libpulseLoaded, "libpulse not mapped by a Get of Outputs")
    }

    /// `quaver output` on a daemon that has not connected yet lists the sinks at its first call.
    func testTheCLIListsOutputsAtRest() throws {
        let listed = try ChildProcess.run(productsDirectory.appendingPathComponent("quaver").path,
                                          ["output", "--bus-address", bus.address], environment: bus.environment, timeout: 20)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("  a  "), listed.stdout)
    }
}
