import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// Multi-room playback on the real parts: quaverd with `output = "snapcast"` writing into snapserver 0.26,
/// quaver-snapcast-plugin as the stream's controlscript, two snapclients playing into a headless PulseAudio,
/// and a JSON-RPC client on snapserver's control port, as Snapweb is. All on 127.0.0.1, stopped by PID.
final class SnapcastTests: XCTestCase {
    var media: SnapcastMedia!
    var bus: PrivateBus!
    var pulse: PulseAudioServer!
    var snapcast: SnapcastRig!
    var home: TemporaryDirectory!
    /// Spawned and reaped by our own waitpid: Foundation's Process misses exits once the sound server runs.
    var daemon: SpawnedTool!
    var client: Connection!
    var daemonLog: String { (try? String(contentsOfFile: home.path + "/quaverd.err", encoding: .utf8)) ?? "" }

    override func setUpWithError() throws {
        media = try SnapcastMedia.shared()  // before PulseAudio: the generators run through Foundation's Process
        bus = try PrivateBus()
        pulse = try PulseAudioServer()
        snapcast = try SnapcastRig(busAddress: bus.address,
                                   plugin: productsDirectory.appendingPathComponent("quaver-snapcast-plugin").path)
        home = try TemporaryDirectory(prefix: "quaverd-home")
        try FileManager.default.createDirectory(atPath: home.path + "/config/quaver", withIntermediateDirectories: true)
        try """
        [audio]
        output = "snapcast"
        [snapcast]
        host = "127.0.0.1"
        port = \(snapcast.sourcePort)
        [log]
        level = "debug"
        """.write(toFile: home.path + "/config/quaver/config.toml", atomically: true, encoding: .utf8)
        let environment = bus.daemonEnvironment(home: home.path).merging(pulse.environment.filter { $0.key == "PULSE_SERVER" }) { $1 }
        // Raised above the builds that share the machine, as a deployment should: the output's 100 ms lead
        // (SnapcastOutput) covers a quaverd woken that late, no later.
        daemon = try SpawnedTool(["nice", "-n", "-10", productsDirectory.appendingPathComponent("quaverd").path],
                                 environment: environment, output: home.path + "/quaverd.out", errors: home.path + "/quaverd.err")
        client = try Connection(address: bus.address)
        XCTAssertTrue(eventually(timeout: 20) { self.status != nil || !self.daemon.isRunning },
                      "quaverd did not start: \(daemonLog)")
        XCTAssertTrue(daemonLog.contains("sound output: audioconvert ! audioresample"), daemonLog)
    }

    override func tearDown() {
        client?.close()
        daemon = nil  // SIGTERM and reaped, by PID
        snapcast = nil
        pulse = nil
        bus = nil
    }

    func testBothRoomsPlayTheTrackAndHearEachClickWithinAFewMilliseconds() throws {
        try snapcast.startClients(pulse: pulse)
        let recording = try record(seconds: SnapcastMedia.clickTrackSeconds + 4) {
            try self.replaceQueue([self.media.clickTrack])
        }
        let clicks = (StereoRecording.clicks(in: recording.left), StereoRecording.clicks(in: recording.right))
        XCTAssertGreaterThanOrEqual(clicks.0.count, SnapcastMedia.clickCount - 2, "room 1 heard the clicks: \(snapcast.clientLogs)")
        XCTAssertGreaterThanOrEqual(clicks.1.count, SnapcastMedia.clickCount - 2, "room 2 heard the clicks")
        // The lead-in tone before the first click, in both rooms.
        let rate = SnapcastRig.recordingRate
        for (room, samples, first) in [("1", recording.left, clicks.0.first ?? 0), ("2", recording.right, clicks.1.first ?? 0)] {
            XCTAssertGreaterThan(StereoRecording.level(samples, (first - 2 * rate)..<(first - rate / 2)), 1_000,
                                 "room \(room) played the track's tone")
        }
        let offsets = recording.clickOffsetsMilliseconds()
        XCTAssertGreaterThanOrEqual(offsets.count, SnapcastMedia.clickCount - 4, "clicks heard in both rooms: \(offsets)")
        let median = offsets.map(abs).sorted()[offsets.count / 2]
        XCTAssertLessThanOrEqual(median, 5, "median offset between the rooms, ms: \(offsets)")
    }

    func testSnapcastClientsSeeTheTrackAndDriveQuaver() throws {
        try replaceQueue([media.clickTrack])
        XCTAssertTrue(eventually(timeout: 10) { self.status == "Playing" }, daemonLog)
        let control = try SnapcastControl(port: snapcast.controlPort)
        var metadata: [String: Any] = [:]
        XCTAssertTrue(eventually(timeout: 10) {
            metadata = ((try? control.stream())?["properties"] as? [String: Any])?["metadata"] as? [String: Any] ?? [:]
            return metadata["title"] as? String == SnapcastMedia.title
        }, "snapserver's stream metadata: \(metadata)\n\(snapcast.serverLog)")
        XCTAssertEqual(metadata["artist"] as? [String], [SnapcastMedia.artist])
        XCTAssertEqual(metadata["duration"] as? Double ?? 0, Double(SnapcastMedia.clickTrackSeconds), accuracy: 0.1)

        try control.request("Stream.Control", ["id": SnapcastRig.streamName, "command": "pause"])
        XCTAssertTrue(eventually(timeout: 5) { self.status == "Paused" }, "Stream.Control pause paused Quaver")
        try control.request("Stream.Control", ["id": SnapcastRig.streamName, "command": "play"])
        XCTAssertTrue(eventually(timeout: 5) { self.status == "Playing" }, "Stream.Control play played again")
        try control.request("Stream.SetProperty", ["id": SnapcastRig.streamName, "property": "volume", "value": 40])
        XCTAssertTrue(eventually(timeout: 5) { self.property("Volume")?.doubleValue == 0.4 }, "volume 40 % reached Quaver")
        try control.request("Stream.Control", ["id": SnapcastRig.streamName, "command": "setPosition",
                                               "params": ["position": 9.0]])
        XCTAssertTrue(eventually(timeout: 5) { self.positionSeconds >= 9 }, "setPosition moved Quaver to 9 s")
        XCTAssertTrue(eventually(timeout: 5) {
            let properties = (try? control.stream())?["properties"] as? [String: Any]
            return properties?["volume"] as? Int == 40 && (properties?["position"] as? Double ?? 0) >= 9
        }, "snapserver was told the new volume and position")
    }

    /// snapserver reads its source on its own timer and, when a read comes a chunk late, jumps its stream ahead
    /// ("onResync"): a gap in the rooms that is no join's. On two cores busy with builds it did in half the
    /// recordings, whichever side was late (docs/multiroom.md, "A busy machine"), so a recording it jumped in
    /// is made again, up to four times; a gap in a recording without a jump fails the test.
    func testAGaplessJoinArrivesWithoutAGap() throws {
        try snapcast.startClients(pulse: pulse)
        let halves = try Fixtures.shared().sweepHalvesFLAC
        var jumps: [Substring] = []
        for attempt in 1...4 {
            let jumpsBefore = snapserverJumps.count
            let recording = try record(seconds: 4 + 4 + 4 + 4) {
                // The lead-in tone again after the sweep: the end of the queue is not a join (its last ~35 ms
                // did not reach the rooms, measured).
                try self.replaceQueue([self.media.lead, halves.0, halves.1, self.media.lead])
            }
            jumps = Array(snapserverJumps.dropFirst(jumpsBefore))
            print("gapless join: recording \(attempt) of 4, snapserver jumped \(jumps.count) times")
            if jumps.isEmpty { return try checkTheSweepArrivedWhole(recording) }
        }
        throw XCTSkip("snapserver jumped its stream in each of four recordings, the last time \(jumps): too busy a machine")
    }

    /// The sweep rises well above the lead-in tone's level: from its first loud sample to its last, the 4 s of it
    /// must all be there, without a silence. (Without gapless joins, measured: 10–12 ms silences and half a
    /// second of the sweep lost where the clients caught up with the late stream.) Both rooms play the same
    /// stream, so a gap in it is a silence of the same length at the same place of the sweep in both; a
    /// snapclient's own under-run on a loaded machine is not: one class run (load 2, two busy loops starting) found
    /// 4171 and 1442 samples of silence ending 0.608 and 0.591 s into the sweep, both clients logging underflows. A silence
    /// both rooms share (within 1 ms of length and 5 ms of place) fails the test, as does a sweep of the wrong
    /// length in both.
    private func checkTheSweepArrivedWhole(_ recording: StereoRecording) throws {
        let rooms = try [recording.left, recording.right].map(sweepHeard)
        let rate = SnapcastRig.recordingRate
        let shared = rooms[0].silences.filter { one in
            rooms[1].silences.contains { abs($0.length - one.length) <= rate / 1_000 && abs($0.end - one.end) <= rate / 200 }
        }
        let context = "room 1: \(rooms[0]); room 2: \(rooms[1]); clients: "
            + "\(snapcast.clientLogs.split(separator: "\n").filter { $0.contains("flow") || $0.contains("Exception") })"
        print("gapless join: room 1: \(rooms[0]); room 2: \(rooms[1])")
        XCTAssertTrue(rooms.contains { abs($0.seconds - 4) <= 0.01 }, "the whole sweep played, nothing lost or added at the joins; \(context)")
        XCTAssertEqual(shared.map(\.length), [], "no silence of a millisecond or more in the stream (samples); \(context)")
    }

    /// What one room (one channel of the recording) heard of the sweep: its length, and its silences of 1 ms or
    /// more (their length, and where they end, counted from the sweep's start).
    private func sweepHeard(_ samples: [Int16]) throws -> SweepHeard {
        let rate = SnapcastRig.recordingRate
        let start = try XCTUnwrap(samples.firstIndex { abs(Int($0)) > 10_000 },
                                  "the sweep reached the room: \(snapcast.clientLogs)\n\(daemonLog)")
        let end = try XCTUnwrap(samples.lastIndex { abs(Int($0)) > 10_000 })
        let silences = StereoRecording.quietRuns(in: samples, from: start, to: end, minimum: rate / 1_000)
        return SweepHeard(seconds: Double(end - start) / Double(rate), silences: silences.map { ($0.length, $0.end - start) })
    }

    private struct SweepHeard: CustomStringConvertible {
        let seconds: Double, silences: [(length: Int, end: Int)]
        var description: String {
            String(format: "%.3f s", seconds) + ", silences (samples, ending at sample): \(silences.map { "\($0.length)@\($0.end)" })"
        }
    }

    func testAStoppedSnapserverIsWaitedForAndPlaybackGoesOn() throws {
        try replaceQueue([media.clickTrack])
        XCTAssertTrue(eventually(timeout: 10) { self.status == "Playing" && self.positionSeconds > 1 }, daemonLog)
        snapcast.killServer()
        XCTAssertTrue(eventually(timeout: 10) { self.daemonLog.contains("the sound output stopped") }, daemonLog)
        let heldAt = positionSeconds
        usleep(2_000_000)
        try snapcast.startServer()
        XCTAssertTrue(eventually(timeout: 15) { self.status == "Playing" && self.positionSeconds > heldAt + 1 },
                      "playing again after snapserver came back (status \(status ?? "none")): \(daemonLog)\nsnapserver: \(snapcast.serverLog)")
        XCTAssertEqual(daemonLog.components(separatedBy: "the sound output stopped").count - 1, 1, "one log line: \(daemonLog)")
        XCTAssertTrue(eventually(timeout: 2) { self.daemonLog.contains("the sound output is back") }, daemonLog)
        XCTAssertFalse(daemonLog.contains("sound server asked us to pause"), "an outage is no cork: \(daemonLog)")
        XCTAssertTrue(daemon.isRunning)
    }

    // MARK: Helpers

    /// Records `room.monitor` from 0.3 s of sound before `start` to `seconds` of sound after it, by the recording's
    /// own length rather than the wall clock: a parec that starts late or lags under load still records it all.
    private func record(seconds: Int, _ start: () throws -> Void) throws -> StereoRecording {
        let file = snapcast.directory.path + "/room.raw"
        let recorder = try snapcast.record(pulse: pulse, into: file)
        XCTAssertTrue(eventually(timeout: 20) { SnapcastRig.recordedSeconds(in: file) >= 0.3 }, "parec: \(recorder.errors)")
        try start()
        let end = SnapcastRig.recordedSeconds(in: file) + Double(seconds)
        XCTAssertTrue(eventually(timeout: Double(seconds) + 30) { SnapcastRig.recordedSeconds(in: file) >= end },
                      "\(SnapcastRig.recordedSeconds(in: file)) s recorded; parec: \(recorder.errors)")
        recorder.stop(signal: SIGINT)
        return try StereoRecording(file: file)
    }

    private func replaceQueue(_ files: [URL]) throws {
        _ = try client.call(destination: ControlAPI.busName, path: ObjectPath(stringLiteral: ControlAPI.objectPath),
                        interface: ControlAPI.quaverInterface, method: "ReplaceQueue",
                        arguments: [.stringArray(files.map(\.absoluteString)), .boolean(true)], timeout: 10)
    }

    private func property(_ name: String) -> DBusValue? {
        try? client.call(destination: ControlAPI.busName, path: ObjectPath(stringLiteral: ControlAPI.objectPath),
                         interface: ControlAPI.propertiesInterface, method: "Get",
                         arguments: [.string(ControlAPI.playerInterface), .string(name)], timeout: 5).first?.unwrapped
    }

    /// snapserver's log lines for each time it jumped its stream ahead.
    private var snapserverJumps: [Substring] { snapcast.serverLog.split(separator: "\n").filter { $0.contains("onResync") } }

    private var status: String? { property("PlaybackStatus")?.stringValue }
    private var positionSeconds: Double { Double(property("Position")?.int64Value ?? -1) / 1_000_000 }
}
