import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// Crossfade in the real quaverd: `[playback] crossfade-seconds`, the `Crossfade` property on org.quaver.Quaver1
/// (set, refused with InvalidArgs and nothing changed, kept over a restart), `quaver crossfade`, and MPRIS following
/// the incoming track from the overlap's start.
final class CrossfadeWiringTests: XCTestCase {
    private func crossfade(_ daemon: RunningDaemon) -> Double? {
        try? daemon.get(QuaverProperty.crossfade, ControlAPI.quaverInterface).doubleValue
    }

    /// Two tones of no album (5 s and 4 s), crossfade 2 s from the configuration: the Metadata turns to the second
    /// track when the first has 2 s left, its Position counts from 0 there, and it changes once. At the overlap's end
    /// a debug line gives its frames: 2 s of them, mixed or found with no incoming sample.
    func testMPRISFollowsTheIncomingTrackFromTheOverlapsStart() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let config = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[playback]\ncrossfade-seconds = 2\n[log]\nlevel = \"debug\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let first = home.url.appendingPathComponent("first.wav"), second = home.url.appendingPathComponent("second.wav")
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", first.path, "synth", "5", "sine", "440", "vol", "0.5"])
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", second.path, "synth", "4", "sine", "660", "vol", "0.5"])
        let daemon = try RunningDaemon([Media.uri(first), Media.uri(second)], home: home,
                                       options: ["--output", "fakesink sync=true", "--play"])
        XCTAssertEqual(crossfade(daemon), 2, "from the configuration")
        daemon.waitUntil("the first track playing", { daemon.currentTrack != nil && daemon.positionSeconds > 0.5 })
        let firstTrack = try XCTUnwrap(daemon.currentTrack)
        var tracks: [String] = []
        let subscription = try daemon.client.subscribe(rule: MatchRule(interface: ControlAPI.propertiesInterface,
                                                                      member: "PropertiesChanged", arg0: ControlAPI.playerInterface)) {
            let changed = ($0.arguments[1].dictionaryValue ?? [:]).mapValues(\.unwrapped)
            if let id = changed[PlayerProperty.metadata]?.dictionaryValue?[MetadataKey.trackID]?.unwrapped.stringValue,
               id != firstTrack, id != tracks.last { tracks.append(id) }
        }
        defer { subscription.cancel() }
        var positionAtSwitch = -1.0, firstPositionBefore = -1.0
        XCTAssertTrue(EventLoop.main.run(until: {
            if let now = daemon.currentTrack, now != firstTrack {
                positionAtSwitch = daemon.positionSeconds
                return true
            }
            // The largest: the track and the position are read one after the other, and the switch may come between.
            firstPositionBefore = max(firstPositionBefore, daemon.positionSeconds)
            return false
        }, timeout: 10), "the second track became current")
        print("crossfade 2 s: Metadata switched with the first track at \(firstPositionBefore) s, the second's position then \(positionAtSwitch) s")
        XCTAssertEqual(firstPositionBefore, 3, accuracy: 0.3, "at the overlap's start: the first track's length less 2 s")
        XCTAssertLessThan(positionAtSwitch, 0.5, "the incoming track's position counts from the overlap's start")
        XCTAssertGreaterThanOrEqual(positionAtSwitch, 0)
        // The loop runs meanwhile, so the signals are taken.
        XCTAssertTrue(EventLoop.main.run(until: { daemon.status == "Stopped" }, timeout: 15), "the end of the queue")
        XCTAssertEqual(tracks.count, 1, "one change of track, to the second, signalled: \(tracks)")
        let frames = try XCTUnwrap(overlapFrames(in: daemon.process.standardError), "the overlap's debug line")
        XCTAssertEqual(frames.mixed + frames.missed, 88_200, accuracy: 441, "2 s at 44.1 kHz")
    }

    /// Frames mixed and missed, from the daemon's line when a crossfade ended.
    private func overlapFrames(in log: String) -> (mixed: Int, missed: Int)? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("frames mixed") }) else { return nil }
        let numbers = line.split(separator: ":").last?.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } ?? []
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    func testTheSettingIsCheckedKeptOverARestartAndSetByTheCLI() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        var daemon: RunningDaemon? = try RunningDaemon([Media.uri(try Media.longTone())], home: home,
                                                       options: ["--output", "fakesink sync=true", "--play"])
        XCTAssertEqual(crossfade(daemon!), 0, "off by default")
        let set = try daemon!.quaver("crossfade", ["3.5"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("crossfade 3.5 s"), set.stdout)
        XCTAssertEqual(crossfade(daemon!), 3.5)
        for value: DBusValue in [.double(-1), .double(12.5), .double(.nan), .double(.infinity), .string("3"), .int32(3)] {
            XCTAssertThrowsError(try daemon!.set(QuaverProperty.crossfade, value, ControlAPI.quaverInterface), "\(value)") {
                XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs", "\(value)")
            }
        }
        XCTAssertNotEqual(try daemon!.quaver("crossfade", ["13"]).status, 0)
        XCTAssertEqual(crossfade(daemon!), 3.5, "refused values changed nothing")
        XCTAssertEqual(daemon!.status, "Playing")
        daemon?.process.stop()
        daemon = nil
        daemon = try RunningDaemon(home: home)
        XCTAssertEqual(crossfade(daemon!), 3.5, "kept in the state")
        let off = try daemon!.quaver("crossfade", ["0"])
        XCTAssertTrue(off.stdout.contains("crossfade off"), off.stdout)
    }
}
