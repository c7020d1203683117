import DesktopEvents
import EventLoop
import GStreamerEngine
import Logging
import PlayerCore
import TestSupport
import XCTest

/// The real chain on a headless sound server: Quaver's GStreamer engine playing through pulsesink with a
/// Player, DesktopEvents in between, PlaybackStatus recorded. The same checks run on PulseAudio (with
/// module-role-cork) and on PipeWire (pipewire-pulse, WirePlumber); each subclass names its server.
class SoundServerChecks: XCTestCase {
    var sound: SoundServerRig!
    var engine: GStreamerEngine!
    var player: Player!
    var events: DesktopEvents!
    var recorder: StatusRecorder!
    var call: URL!

    func makeServer() throws -> SoundServerRig { fatalError("a subclass names its server") }

    func start(policies: DesktopPolicies = DesktopPolicies()) throws {
        sound = try makeServer()
        let music = try sound.tone(seconds: 120, named: "music.wav")  // outlasts every check
        call = try sound.tone(seconds: 2, named: "call.wav")
        engine = GStreamerEngine(configuration: .init(sink: "pulsesink", applicationName: "Quaver tests"))
        player = Player(engine: engine)
        recorder = StatusRecorder()
        player.addObserver(recorder)
        events = DesktopEvents(player: player, policies: policies, log: Logger(label: "test"))
        try events.start(systemBus: nil, sessionBus: nil) {}
        _ = player.add([music.absoluteString])
        player.play()
        XCTAssertTrue(pump(until: { self.player.state == .playing }, timeout: 20), "state \(player.state)")
        pump(until: { false }, timeout: 1)  // the events have listed sinks and our stream
        recorder.statuses = []
    }

    override func tearDown() {
        events?.stop()
        player?.stop()
        pump(until: { false }, timeout: 0.2)
        events = nil
        player = nil
        engine = nil
        sound = nil
    }

    /// Our own stream: the sink it plays on.
    func ourSink() throws -> Int? {
        try sound.playbackStreams().first { $0.properties["application.process.id"] == String(getpid()) }?.sink
    }

    func checkOurStreamCarriesTheMusicRole() throws {
        try start()
        let ours = try sound.playbackStreams().first { $0.properties["application.process.id"] == String(getpid()) }
        XCTAssertEqual(ours?.properties["media.role"], "music", "\(String(describing: ours))")
    }

    func checkPhoneStreamPausesAndItsEndResumes() throws {
        try start()
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        XCTAssertTrue(player.isPausedByInterruption)
        XCTAssertTrue(pump(until: { !phone.isRunning }, timeout: 20))
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10), "\(recorder.statuses)")
        pump(until: { false }, timeout: 2)  // role-cork's own resume, where there is one, changes nothing more
        XCTAssertEqual(recorder.statuses, [.paused, .playing])
    }

    func checkUserPauseDuringTheCallIsNotUndoneByItsEnd() throws {
        try start()
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10))
        player.pause()
        XCTAssertTrue(pump(until: { !phone.isRunning }, timeout: 20))
        pump(until: { false }, timeout: 3)  // both resume paths would have fired ~1 s after the call
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(recorder.statuses, [.paused])
    }

    func checkNotificationAndRolelessStreamsDoNothing() throws {
        try start()
        let sounds = [try sound.paplay(["--property=media.role=event", call.path]),
                      try sound.paplay(["--property=media.role=a11y", call.path]),
                      try sound.paplay([call.path])]
        XCTAssertTrue(pump(until: { sounds.allSatisfy { !$0.isRunning } }, timeout: 20))
        pump(until: { false }, timeout: 1.5)
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(recorder.statuses, [])
    }

    func checkCallsAreIgnoredWhenTurnedOff() throws {
        var policies = DesktopPolicies()
        policies.pauseOnCall = false
        policies.pauseOnCork = false
        try start(policies: policies)
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(pump(until: { !phone.isRunning }, timeout: 20))
        pump(until: { false }, timeout: 1.5)
        XCTAssertEqual(recorder.statuses, [])
    }

    /// A sink is added and made the default (our stream follows it), then removed: the music would go
    /// elsewhere, so it pauses, and nothing undoes that.
    func checkRemovingTheSinkWePlayOnPauses() throws {
        try start()
        let module = try sound.pactl(["load-module", "module-null-sink", "sink_name=spare"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try sound.pactl(["set-default-sink", "spare"])
        let spare = try sound.sinkIndex("spare")
        XCTAssertNotNil(spare)
        XCTAssertTrue(pump(until: { (try? self.ourSink()) == spare }, timeout: 10), "our stream did not move to spare")
        XCTAssertEqual(player.status, .playing)
        pump(until: { false }, timeout: 1)  // pactl blocked the loop: let the events see the move first
        try sound.pactl(["unload-module", module])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        pump(until: { false }, timeout: 3)
        XCTAssertEqual(player.status, .paused, "an output removal is not undone")
    }

    /// Plays on a sink `spare` made the default, then removes it: paused. Returns the module's index.
    func removeTheSpareSinkWePlayOn() throws {
        try sound.pactl(["load-module", "module-null-sink", "sink_name=spare"])
        try sound.pactl(["set-default-sink", "spare"])
        let spare = try sound.sinkIndex("spare")
        XCTAssertTrue(pump(until: { (try? self.ourSink()) == spare }, timeout: 10), "our stream did not move to spare")
        pump(until: { false }, timeout: 1)  // pactl blocked the loop: let the events see the move first
        let module = try sound.pactl(["list", "short", "modules"]).stdout.split(separator: "\n")
            .first { $0.contains("sink_name=spare") }?.split(separator: "\t").first.map(String.init)
        try sound.pactl(["unload-module", try XCTUnwrap(module)])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
    }

    /// The same sink name comes back (Bluetooth headphones reconnecting).
    func bringTheSpareSinkBack() throws {
        try sound.pactl(["load-module", "module-null-sink", "sink_name=spare"])
    }

    func checkAnOutputReturningInTheWindowResumesOnIt() throws {
        try start()
        try removeTheSpareSinkWePlayOn()
        let returned = Date()
        try bringTheSpareSinkBack()
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10), "\(recorder.statuses)")
        print("\(sound.name): sink back → playing again in \(Int(Date().timeIntervalSince(returned) * 1000)) ms")
        let spare = try sound.sinkIndex("spare")
        XCTAssertTrue(pump(until: { (try? self.ourSink()) == spare }, timeout: 5), "playing on the sink that came back")
        XCTAssertEqual(recorder.statuses, [.paused, .playing])
    }

    func checkAnOutputReturningAfterTheWindowStaysPaused() throws {
        var policies = DesktopPolicies()
        policies.resumeWindowMinutes = 0.02  // 1.2 s
        try start(policies: policies)
        try removeTheSpareSinkWePlayOn()
        pump(until: { false }, timeout: 2)
        try bringTheSpareSinkBack()
        pump(until: { false }, timeout: 2)
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(recorder.statuses, [.paused])
    }

    func checkAUserPauseBeforeTheOutputReturnsIsKept() throws {
        try start()
        try removeTheSpareSinkWePlayOn()
        player.pause()  // the user's own, while the output is away
        try bringTheSpareSinkBack()
        pump(until: { false }, timeout: 2)
        XCTAssertEqual(player.status, .paused)
        XCTAssertEqual(recorder.statuses, [.paused])
    }

    func checkANewDefaultSinkMovesUsAndKeepsPlaying() throws {
        try start()
        try sound.pactl(["set-default-sink", "b"])
        let b = try sound.sinkIndex("b")
        XCTAssertTrue(pump(until: { (try? self.ourSink()) == b }, timeout: 10), "our stream did not move to b")
        pump(until: { false }, timeout: 3)
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(recorder.statuses, [])
    }
}

final class PulseAudioSoundServerTests: SoundServerChecks {
    override func makeServer() throws -> SoundServerRig {
        let pulse = try PulseAudioServer()
        try pulse.pactl(["load-module", "module-null-sink", "sink_name=b"])
        return pulse
    }

    func testOurStreamCarriesTheMusicRole() throws { try checkOurStreamCarriesTheMusicRole() }
    func testPhoneStreamPausesAndItsEndResumes() throws { try checkPhoneStreamPausesAndItsEndResumes() }
    func testUserPauseDuringTheCallIsNotUndoneByItsEnd() throws { try checkUserPauseDuringTheCallIsNotUndoneByItsEnd() }
    func testNotificationAndRolelessStreamsDoNothing() throws { try checkNotificationAndRolelessStreamsDoNothing() }
    func testCallsAreIgnoredWhenTurnedOff() throws { try checkCallsAreIgnoredWhenTurnedOff() }
    func testRemovingTheSinkWePlayOnPauses() throws { try checkRemovingTheSinkWePlayOnPauses() }
    func testANewDefaultSinkMovesUsAndKeepsPlaying() throws { try checkANewDefaultSinkMovesUsAndKeepsPlaying() }
    func testAnOutputReturningInTheWindowResumesOnIt() throws { try checkAnOutputReturningInTheWindowResumesOnIt() }
    func testAnOutputReturningAfterTheWindowStaysPaused() throws { try checkAnOutputReturningAfterTheWindowStaysPaused() }
    func testAUserPauseBeforeTheOutputReturnsIsKept() throws { try checkAUserPauseBeforeTheOutputReturnsIsKept() }

    /// With role-cork off, our own call watcher still pauses (and resumes) on PulseAudio.
    func testTheCallWatcherAloneSuffices() throws {
        var policies = DesktopPolicies()
        policies.pauseOnCork = false
        try start(policies: policies)
        let phone = try sound.paplay(["--property=media.role=phone", call.path])
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        XCTAssertTrue(pump(until: { !phone.isRunning }, timeout: 20))
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10), "\(recorder.statuses)")
        XCTAssertEqual(recorder.statuses, [.paused, .playing])
    }
}

final class PipeWireSoundServerTests: SoundServerChecks {
    override func makeServer() throws -> SoundServerRig { try PipeWireServer() }

    func testOurStreamCarriesTheMusicRole() throws { try checkOurStreamCarriesTheMusicRole() }
    func testPhoneStreamPausesAndItsEndResumes() throws { try checkPhoneStreamPausesAndItsEndResumes() }
    func testUserPauseDuringTheCallIsNotUndoneByItsEnd() throws { try checkUserPauseDuringTheCallIsNotUndoneByItsEnd() }
    func testNotificationAndRolelessStreamsDoNothing() throws { try checkNotificationAndRolelessStreamsDoNothing() }
    func testCallsAreIgnoredWhenTurnedOff() throws { try checkCallsAreIgnoredWhenTurnedOff() }
    func testRemovingTheSinkWePlayOnPauses() throws { try checkRemovingTheSinkWePlayOnPauses() }
    func testANewDefaultSinkMovesUsAndKeepsPlaying() throws { try checkANewDefaultSinkMovesUsAndKeepsPlaying() }
    func testAnOutputReturningInTheWindowResumesOnIt() throws { try checkAnOutputReturningInTheWindowResumesOnIt() }
    func testAnOutputReturningAfterTheWindowStaysPaused() throws { try checkAnOutputReturningAfterTheWindowStaysPaused() }
    func testAUserPauseBeforeTheOutputReturnsIsKept() throws { try checkAUserPauseBeforeTheOutputReturnsIsKept() }

    /// A native PipeWire client's `Communication` role reaches us as `phone` through pipewire-pulse.
    func testANativeCommunicationStreamPauses() throws {
        try start()
        let pipewire = try XCTUnwrap(sound as? PipeWireServer)
        let phone = try SpawnedTool(["pw-play", "--media-role", "Communication", call.path],
                                    environment: pipewire.nativeEnvironment, output: sound.directory.path + "/pw-play.out")
        XCTAssertTrue(pump(until: { self.player.status == .paused }, timeout: 10), "\(recorder.statuses)")
        XCTAssertTrue(pump(until: { !phone.isRunning }, timeout: 20))
        XCTAssertTrue(pump(until: { self.player.status == .playing }, timeout: 10), "\(recorder.statuses)")
    }
}

final class StatusRecorder: PlayerObserver {
    var statuses: [PlaybackStatus] = []
    func playerDidChange(_ change: PlayerChange) {
        if case .status(let status) = change { statuses.append(status) }
    }
}
