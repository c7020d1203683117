import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// The real quaverd, desktop events on, playing through pulsesink into a headless sound server, driven and
/// read over MPRIS on a private bus. The sound server is killed and started again under it, and calls
/// start and end beside it; the same checks run on PulseAudio and on PipeWire.
class DaemonSoundServerChecks: XCTestCase {
    var sound: SoundServerRig!
    var bus: PrivateBus!
    var home: TemporaryDirectory!
    var daemon: ChildProcess!
    var client: Connection!

    func makeServer() throws -> SoundServerRig { fatalError("a subclass names its server") }

    override func setUpWithError() throws {
        sound = try makeServer()
        let music = try sound.tone(seconds: 300, named: "music.flac")
        bus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "quaverd-home")
        var environment = bus.environment.merging(sound.environment.filter { $0.key == "PULSE_SERVER" }) { $1 }
        environment["HOME"] = home.path
        for (key, folder) in [("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")] {
            environment[key] = home.path + "/" + folder
        }
        daemon = try ChildProcess(productsDirectory.appendingPathComponent("quaverd").path,
                                  ["--output", "pulsesink", "--play", music.absoluteString],
                                  environment: environment, logDirectory: home.url)
        client = try Connection(address: bus.address)
        XCTAssertTrue(eventually(timeout: 20) { self.status == "Playing" || !self.daemon.isRunning },
                      "quaverd did not play: \(daemon.standardError)")
    }

    override func tearDown() {
        client?.close()
        daemon?.stop()
        daemon = nil
        bus = nil
        sound = nil
    }

    func property(_ name: String) -> DBusValue? {
        try? client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                         interface: "org.freedesktop.DBus.Properties", method: "Get",
                         arguments: [.string("org.mpris.MediaPlayer2.Player"), .string(name)], timeout: 5).first?.unwrapped
    }

    var status: String? { property("PlaybackStatus")?.stringValue }
    var position: Int64 { property("Position")?.int64Value ?? -1 }

    /// Alive and not a zombie (a crashed child stays one until reaped).
    var daemonAlive: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(daemon.pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")
    }

    /// Playing, and the position moves on by half a second.
    func assertPlaysOn(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(eventually(timeout: 15) { self.status == "Playing" }, "\(context): status \(String(describing: status))",
                      file: file, line: line)
        let start = position
        XCTAssertTrue(eventually(timeout: 15) { self.position > start + 500_000 },
                      "\(context): position stuck at \(start)", file: file, line: line)
    }

    func checkSurvivesTheServerKilledAndRestartedTenTimes() throws {
        let pid = daemon.pid
        continueAfterFailure = false  // a dead daemon fails every later round the same way
        assertPlaysOn("before")
        for round in 1...10 {
            sound.kill()
            usleep(300_000)
            XCTAssertTrue(daemonAlive, "round \(round): quaverd died: \(daemon.standardError.suffix(2000))")
            try sound.startAgain()
            assertPlaysOn("round \(round)")
            XCTAssertTrue(daemonAlive && daemon.pid == pid, "round \(round)")
        }
        let lost = daemon.standardError.components(separatedBy: "sound server connection lost").count - 1
        XCTAssertEqual(lost, 10, "one line per outage: \(daemon.standardError.suffix(3000))")
    }

    func checkPhoneStreamPausesAndItsEndResumes() throws {
        assertPlaysOn("before")
        let call = try sound.tone(seconds: 2, named: "call.wav")
        let started = Date()
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(eventually(timeout: 10) { self.status == "Paused" })
        print("\(sound.name): phone stream → PlaybackStatus Paused in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertTrue(eventually(timeout: 20) { !phone.isRunning })
        assertPlaysOn("after the call")
    }

    func checkNotificationStreamDoesNothing() throws {
        assertPlaysOn("before")
        let ding = try sound.paplay(["--property=media.role=event", try sound.tone(seconds: 2, named: "ding.wav").path])
        XCTAssertTrue(eventually(timeout: 20) {
            XCTAssertEqual(self.status, "Playing")
            return !ding.isRunning
        })
        usleep(1_500_000)
        XCTAssertEqual(status, "Playing")
    }
}

final class DaemonOnPulseAudioTests: DaemonSoundServerChecks {
    override func makeServer() throws -> SoundServerRig { try PulseAudioServer() }

    func testSurvivesTheServerKilledAndRestartedTenTimes() throws { try checkSurvivesTheServerKilledAndRestartedTenTimes() }
    func testPhoneStreamPausesAndItsEndResumes() throws { try checkPhoneStreamPausesAndItsEndResumes() }
    func testNotificationStreamDoesNothing() throws { try checkNotificationStreamDoesNothing() }
}

final class DaemonOnPipeWireTests: DaemonSoundServerChecks {
    override func makeServer() throws -> SoundServerRig { try PipeWireServer() }

    func testSurvivesTheServerKilledAndRestartedTenTimes() throws { try checkSurvivesTheServerKilledAndRestartedTenTimes() }
    func testPhoneStreamPausesAndItsEndResumes() throws { try checkPhoneStreamPausesAndItsEndResumes() }
    func testNotificationStreamDoesNothing() throws { try checkNotificationStreamDoesNothing() }
}
