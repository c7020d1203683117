import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// Seeked and PropertiesChanged as clients receive them from the real daemon.
final class SignalTests: XCTestCase {
    private var daemon: RunningDaemon!
    private var fixtures: Fixtures!

    override func setUpWithError() throws {
        fixtures = try Media.fixtures()
        daemon = try RunningDaemon([try Media.longTone().path, fixtures.flac.path])
    }

    override func tearDown() { daemon = nil }

    /// Seeked values (µs) received by an in-process client, pumped on the test's loop.
    private func recordSeeked() throws -> (SignalSubscription, () -> [Int64]) {
        var seen: [Int64] = []
        let subscription = try daemon.client.subscribe(rule: MatchRule(sender: ControlAPI.busName,
                                                                       interface: ControlAPI.playerInterface, member: "Seeked")) {
            seen.append($0.arguments.first?.int64Value ?? -1)
        }
        EventLoop.main.run(until: { false }, timeout: 0.2)  // AddMatch and the owner lookup settle
        return (subscription, { seen })
    }

    func testSeekedFollowsSeekAndSetPositionButNotATrackChange() throws {
        let (subscription, seeked) = try recordSeeked()
        defer { subscription.cancel() }
        try daemon.call("Play")
        daemon.waitUntil("seekable") { (try? daemon.get("CanSeek").boolValue) == true }
        let first = try XCTUnwrap(daemon.currentTrack)
        try daemon.call("SetPosition", [.objectPath(try ObjectPath(first)), .int64(20_000_000)])
        XCTAssertTrue(EventLoop.main.run(until: { seeked().count == 1 }, timeout: 10))
        XCTAssertEqual(seeked()[0], 20_000_000, accuracy: 100_000, "the new position")
        try daemon.call("Seek", [.int64(5_000_000)])
        XCTAssertTrue(EventLoop.main.run(until: { seeked().count == 2 }, timeout: 10))
        XCTAssertEqual(seeked()[1], 25_000_000, accuracy: 500_000)
        XCTAssertGreaterThanOrEqual(daemon.positionSeconds, 24.5, "Position agrees once Seeked arrived")

        try daemon.call("Next")
        daemon.waitUntil("the next track plays") { daemon.currentTrack != first && daemon.metadata["mpris:length"] != nil }
        EventLoop.main.run(until: { false }, timeout: 1)
        XCTAssertEqual(seeked().count, 2, "no Seeked on a normal track change: \(seeked())")
    }

    func testLoopingTrackRestartSendsSeekedZero() throws {
        let (subscription, seeked) = try recordSeeked()
        defer { subscription.cancel() }
        try daemon.call("Next")
        try daemon.set("LoopStatus", .string("Track"))
        try daemon.call("Play")
        daemon.waitUntil("seekable") { (try? daemon.get("CanSeek").boolValue) == true }
        try daemon.call("Seek", [.int64(Int64(Fixtures.toneSeconds - 1) * 1_000_000)])
        XCTAssertTrue(EventLoop.main.run(until: { seeked().count == 2 }, timeout: 15), "\(seeked())")
        XCTAssertEqual(seeked().last, 0, "the loop restart")
        XCTAssertEqual(daemon.status, "Playing")
    }

    /// dbus-monitor records every PropertiesChanged: one for the track change, carrying Metadata and
    /// PlaybackStatus together, values not invalidations, never Position.
    func testTrackChangeIsOneBatchedPropertiesChanged() throws {
        let logs = try TemporaryDirectory(prefix: "monitor")
        let monitor = try ChildProcess("dbus-monitor", ["--address", daemon.bus.address,
                                                        "type='signal',member='PropertiesChanged'"],
                                       logDirectory: logs.url)
        defer { monitor.stop() }
        XCTAssertTrue(eventually { monitor.standardOutput.contains("NameAcquired") || monitor.standardOutput.contains("member=") })
        try daemon.call("OpenUri", [.string(Media.uri(fixtures.mp3))])  // add, make current and play: three core changes
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        XCTAssertTrue(eventually(timeout: 10) {
            monitor.standardOutput.contains("\"Playing\"") && monitor.standardOutput.contains("\"org.mpris.MediaPlayer2.TrackList\"")
        }, "the monitor saw the track change's signals: \(monitor.standardOutput)")
        usleep(300_000)  // the point: no more may come (a second batch, Position); one would be in by now
        let signals = monitor.standardOutput.components(separatedBy: "\nsignal ").filter {
            $0.contains("member=PropertiesChanged") && $0.contains("\"org.mpris.MediaPlayer2.Player\"")
        }
        let first = try XCTUnwrap(signals.first, monitor.standardOutput)
        XCTAssertTrue(first.contains("\"Metadata\"") && first.contains("\"PlaybackStatus\""), first)
        XCTAssertTrue(first.contains("\"Playing\""), first)
        XCTAssertFalse(monitor.standardOutput.contains("\"Position\""), "Position is never signalled")
        let trackList = monitor.standardOutput.components(separatedBy: "\nsignal ").filter {
            $0.contains("\"org.mpris.MediaPlayer2.TrackList\"")
        }
        XCTAssertEqual(trackList.count, 1, "Tracks invalidated once")
        XCTAssertTrue(trackList.first?.contains("string \"Tracks\"") == true)
    }
}
