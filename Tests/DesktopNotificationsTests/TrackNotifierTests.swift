import DBus
import DesktopNotifications
import EventLoop
import Logging
import PlayerCore
import TestSupport
import XCTest

/// The notifier against a fake notification server (python3-dbus) on a private bus, driven by a player on
/// the fake engine.
final class TrackNotifierTests: XCTestCase {
    private var bus: PrivateBus!
    private var connection: Connection!
    private var engine: FakeEngine!
    private var player: Player!
    private var server: ChildProcess?

    override func setUpWithError() throws {
        bus = try PrivateBus()
        connection = try Connection(address: bus.address)
        (engine, player) = FakeEngine.stillPlayer()
    }

    override func tearDown() {
        server?.stop()
        player = nil
        connection.close()
        bus.stop()
    }

    private func startServer(replyAfter seconds: Double = 0) throws {
        let server = try ChildProcess("/usr/bin/python3", ["-c", FakeNotificationServer.script, "\(seconds)"],
                                      environment: bus.environment, logDirectory: bus.directory.url)
        self.server = server
        XCTAssertTrue(pump(until: { server.standardOutput.contains("ready") }, timeout: 20), server.standardError)
    }

    private var calls: [[String: Any]] { FakeNotificationServer.calls(in: server?.standardOutput ?? "") }

    private func notifier(timeout: Double? = nil) -> TrackNotifier {
        TrackNotifier(player: player, connection: connection,
                      options: .init(timeoutSeconds: timeout, settleSeconds: 0.05) { track in
                          "file:///art/\(track.id.rawValue).png"
                      }, log: Logger(label: "test"))
    }

    private func queue(_ titles: [String]) -> [TrackID] {
        let ids = player.add(titles.map { "file:///m/\($0).flac" })
        for (id, title) in zip(ids, titles) {
            var tags = TrackTags()
            tags.title = title
            tags.artists = ["Artist"]
            tags.album = "Album"
            player.updateTags(id, tags)
        }
        return ids
    }

    /// Lets the notifier settle and the server answer.
    private func settle() {
        engine.deliverEvents()
        pump(until: { false }, timeout: 0.4)
    }

    func testOneNotifyPerTrackChangeEachReplacingTheLast() throws {
        try startServer()
        let notifier = notifier(timeout: 4)
        _ = queue(["One", "Two"])
        player.play()
        settle()
        player.pause()
        settle()
        player.play()
        player.seek(by: .seconds(10))
        settle()
        XCTAssertEqual(calls.count, 1, "pause, play and seek show nothing new: \(calls)")
        engine.finishCurrentTrack()  // a gapless switch to the prepared track
        settle()
        XCTAssertEqual(player.currentTrack?.title, "Two")
        let seen = calls
        XCTAssertEqual(seen.count, 2, "\(seen)")
        guard seen.count == 2 else { return }
        XCTAssertEqual(seen.map { $0["summary"] as? String }, ["One", "Two"])
        XCTAssertEqual(seen.map { $0["body"] as? String }, ["Artist — Album", "Artist — Album"])
        XCTAssertEqual(seen.map { $0["replaces"] as? Int }, [0, seen[0]["id"] as? Int], "the second replaces the first")
        XCTAssertEqual(seen[0]["app"] as? String, "Quaver")
        XCTAssertEqual(seen[0]["timeout"] as? Int, 4000)
        let hints = seen[1]["hints"] as? [String: Any]
        XCTAssertEqual(hints?["image-path"] as? String, "file:///art/2.png")
        XCTAssertEqual(hints?["urgency"] as? Int, 0)
        XCTAssertEqual(hints?["transient"] as? Int, 1)
        XCTAssertEqual(hints?["category"] as? String, "x-gnome.music")
        withExtendedLifetime(notifier) {}
    }

    func testNothingWhilePausedOrStoppedAndASkippedTrackOnlyOnceItPlays() throws {
        try startServer()
        let notifier = notifier()
        let ids = queue(["One", "Two", "Three"])
        player.goTo(ids[1])
        settle()
        XCTAssertEqual(calls.count, 0, "stopped: \(calls)")
        player.play()
        player.pause()
        player.next()
        settle()
        XCTAssertEqual(calls.count, 0, "paused: \(calls)")
        player.play()
        settle()
        XCTAssertEqual(calls.map { $0["summary"] as? String }, ["Three"])
        withExtendedLifetime(notifier) {}
    }

    /// A server slow to answer: the loop goes on meanwhile, and a change made before the reply is sent
    /// after it, with the id it brought.
    func testASlowServerNeverBlocksTheLoopAndTheIdsStillChain() throws {
        try startServer(replyAfter: 1)
        let notifier = notifier()
        _ = queue(["One", "Two", "Three"])
        player.play()
        settle()
        var ticks = 0
        let timer = EventLoop.main.schedule(after: 0.05, repeating: true) { ticks += 1 }
        defer { timer.cancel() }
        player.next()
        settle()
        player.next()
        settle()
        XCTAssertGreaterThan(ticks, 10, "the loop ran while the server took its time")
        XCTAssertTrue(pump(until: { self.calls.count == 2 }, timeout: 5), "\(calls)")
        XCTAssertEqual(calls.map { $0["summary"] as? String }, ["One", "Three"], "Two was passed before it could show")
        XCTAssertEqual(calls.last?["replaces"] as? Int, calls.first?["id"] as? Int)
        withExtendedLifetime(notifier) {}
    }

    func testWithoutAServerPlayingGoesOnAndOneArrivingLaterIsUsed() throws {
        let notifier = notifier()
        _ = queue(["One", "Two"])
        player.play()
        settle()
        player.next()
        settle()
        XCTAssertEqual(player.currentTrack?.title, "Two")
        XCTAssertEqual(player.status, .playing)
        try startServer()
        player.pause()
        player.play()
        settle()
        XCTAssertEqual(calls.map { $0["summary"] as? String }, ["Two"], "not shown before, so shown now")
        withExtendedLifetime(notifier) {}
    }
}
