import DesktopEvents
import EventLoop
import GStreamerEngine
import Logging
import PlayerCore
import TestSupport
import XCTest

/// The real chain: a headless PulseAudio with module-role-cork, Quaver's GStreamer engine playing
/// through pulsesink with a Player, DesktopEvents in between, PlaybackStatus recorded.
final class SoundServerTests: XCTestCase {
    var pulse: PulseAudioServer!
    var engine: GStreamerEngine!
    var player: Player!
    var events: DesktopEvents!
    var recorder: StatusRecorder!

    override func setUpWithError() throws {
        let tone = try Fixtures.shared().wav
        pulse = try PulseAudioServer()
        engine = try GStreamerEngine(configuration: .init(sink: "pulsesink", applicationName: "Quaver tests"))
        player = Player(engine: engine)
        recorder = StatusRecorder()
        player.addObserver(recorder)
        events = DesktopEvents(player: player, engine: engine, policies: DesktopPolicies(), log: Logger(label: "test"))
        try events.start(systemBus: nil, sessionBus: nil) {}
        _ = player.add([tone.absoluteString])
        player.play()
        XCTAssertTrue(pump(until: { self.player.state == .playing }, timeout: 20), "state \(player.state)")
        recorder.statuses = []
    }

    override func tearDown() {
        events?.stop()
        player?.stop()
        pump(until: { false }, timeout: 0.2)
        events = nil
        player = nil
        engine = nil
        pulse = nil
    }

    /// A 2 s tone played with the phone role: module-role-cork corks music streams while it plays.
    private func phoneCall() throws -> SpawnedTool {
        let call = pulse.directory.url.appendingPathComponent("call.wav")
        if !FileManager.default.fileExists(atPath: call.path) {
            let made = try SpawnedTool(["sox", "-q", "-n", "-r", "44100", "-c", "2", call.path, "synth", "2", "sine", "660"],
                                       environment: pulse.environment, output: pulse.directory.path + "/sox.out").finish()
            XCTAssertEqual(made.status, 0)
        }
        return try pulse.paplay(["--property=media.role=phone", call.path])
    }

    func testOurStreamCarriesTheMusicRole() throws {
        let inputs = try pulse.pactl(["list", "sink-inputs"]).stdout
        XCTAssertTrue(inputs.contains("media.role = \"music\""), inputs)
        XCTAssertTrue(inputs.contains("application.process.id = \"\(getpid())\""), inputs)
    }

    func testPhoneStreamPausesAndItsEndResumes() throws {
        let call = try phoneCall()
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        XCTAssertTrue(player.isPausedByInterruption)
        XCTAssertTrue(pump(until: { !call.isRunning }, timeout: 20))
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10), "\(recorder.statuses)")
        XCTAssertEqual(recorder.statuses, [.paused, .playing])
    }

    func testUserPauseDuringTheCallIsNotUndoneByItsEnd() throws {
        let call = try phoneCall()
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10))
        player.pause()
        XCTAssertTrue(pump(until: { !call.isRunning }, timeout: 20))
        pump(until: { false }, timeout: 3)  // pulsesink asks to play ~1 s after the call ends
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(recorder.statuses, [.paused])
    }

    func testRemovingTheSinkWePlayOnPauses() throws {
        pump(until: { false }, timeout: 1)  // the monitor has listed sinks and our stream
        let modules = try pulse.pactl(["list", "short", "modules"]).stdout
        guard let line = modules.split(separator: "\n").first(where: { $0.contains("module-null-sink") && $0.contains("sink_name=a") }),
              let index = line.split(separator: "\t").first else { return XCTFail("no null sink a in \(modules)") }
        try pulse.pactl(["load-module", "module-null-sink", "sink_name=spare"])
        try pulse.pactl(["unload-module", String(index)])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        pump(until: { false }, timeout: 3)
        XCTAssertEqual(player.status, .paused, "an output removal is not undone")
    }

    func testANewDefaultSinkDoesNotPause() throws {
        pump(until: { false }, timeout: 1)
        try pulse.pactl(["load-module", "module-null-sink", "sink_name=b"])
        try pulse.pactl(["set-default-sink", "b"])
        pump(until: { false }, timeout: 3)
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(recorder.statuses, [])
    }
}

final class StatusRecorder: PlayerObserver {
    var statuses: [PlaybackStatus] = []
    func playerDidChange(_ change: PlayerChange) {
        if case .status(let status) = change { statuses.append(status) }
    }
}
