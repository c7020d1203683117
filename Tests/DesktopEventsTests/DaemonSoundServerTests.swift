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
    /// Spawned and reaped by our own waitpid: Foundation's Process misses exits once the sound server runs.
    var daemon: SpawnedTool!
    var daemonLog: String { (try? String(contentsOfFile: home.path + "/quaverd.err", encoding: .utf8)) ?? "" }
    var client: Connection!

    func makeServer() throws -> SoundServerRig { fatalError("a subclass names its server") }

    override func setUpWithError() throws {
        bus = try PrivateBus()  // before the sound server, for the same reason
        sound = try makeServer()
        home = try TemporaryDirectory(prefix: "quaverd-home")
        client = try Connection(address: bus.address)
        try startDaemon()
    }

    /// Starts quaverd (again, on the same home and state after `daemon = nil`), playing the long tone.
    func startDaemon() throws {
        let music = try sound.tone(seconds: 300, named: "music.flac")
        let environment = bus.daemonEnvironment(home: home.path).merging(sound.environment.filter { $0.key == "PULSE_SERVER" }) { $1 }
        daemon = try SpawnedTool([productsDirectory.appendingPathComponent("quaverd").path,
                                  "--output", "pulsesink", "--play", music.absoluteString],
                                 environment: environment, output: home.path + "/quaverd.out", errors: home.path + "/quaverd.err")
        XCTAssertTrue(eventually(timeout: 20) { self.status == "Playing" || !self.daemon.isRunning },
                      "quaverd did not play: \(daemonLog)")
    }

    override func tearDown() {
        client?.close()
        daemon = nil  // SIGTERM and reaped, by PID
        sound = nil
        bus = nil
    }

    func property(_ name: String) -> DBusValue? {
        try? client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                         interface: "org.freedesktop.DBus.Properties", method: "Get",
                         arguments: [.string("org.mpris.MediaPlayer2.Player"), .string(name)], timeout: 5).first?.unwrapped
    }

    var status: String? { property("PlaybackStatus")?.stringValue }
    /// org.quaver.Quaver1 WaitingReason (docs/dbus-api.md, "Playback health").
    var waitingReason: String? {
        try? client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                         interface: "org.freedesktop.DBus.Properties", method: "Get",
                         arguments: [.string("org.quaver.Quaver1"), .string("WaitingReason")], timeout: 5).first?.unwrapped.stringValue
    }
    var position: Int64 { property("Position")?.int64Value ?? -1 }


    /// Playing, and the position moves on by half a second.
    func assertPlaysOn(_ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(eventually(timeout: 15) { self.status == "Playing" }, "\(context): status \(String(describing: status))",
                      file: file, line: line)
        let start = position
        XCTAssertTrue(eventually(timeout: 15) { self.position > start + 500_000 },
                      "\(context): position stuck at \(start)", file: file, line: line)
    }

    func checkSurvivesTheServerKilledAndRestartedTenTimes() throws {
        assertPlaysOn("before")
        let lostLines = { self.daemonLog.components(separatedBy: "sound server connection lost").count - 1 }
        for round in 1...10 {
            sound.kill()
            // The daemon has seen its connections drop (its line for this outage) before the server is back; a 0.3 s
            // sleep only hoped so, and a loaded machine could restart the server before quaverd looked.
            XCTAssertTrue(eventually(timeout: 10) { lostLines() >= round }, "round \(round): \(daemonLog.suffix(2000))")
            if round == 1 {
                XCTAssertTrue(eventually(timeout: 10) { self.waitingReason == "output-gone" }, "\(String(describing: waitingReason))")
            }
            try sound.startAgain()
            // Still the child we started (waitpid has not reaped it), so the same process.
            guard daemon.isRunning else { return XCTFail("round \(round): quaverd died: \(daemonLog.suffix(2000))") }
            assertPlaysOn("round \(round)")
        }
        XCTAssertEqual(lostLines(), 10, "one line per outage: \(daemonLog.suffix(3000))")
    }

    /// The music resumes after the call where it paused: two seconds in, so that a resumption from the start would
    /// show.
    func checkPhoneStreamPausesAndItsEndResumes() throws {
        assertPlaysOn("before")
        XCTAssertTrue(eventually(timeout: 15) { self.position > 2_000_000 }, "position \(position)")
        let call = try sound.tone(seconds: 2, named: "call.wav")
        let started = Date()
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(eventually(timeout: 10) { self.status == "Paused" })
        XCTAssertEqual(waitingReason, "interruption")
        let pausedAt = position
        print("\(sound.name): phone stream → PlaybackStatus Paused in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertTrue(eventually(timeout: 20) { !phone.isRunning })
        assertPlaysOn("after the call")
        XCTAssertGreaterThan(position, pausedAt, "resumed where it paused (at \(pausedAt) µs), not from the start")
        XCTAssertEqual(waitingReason, "none")
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
