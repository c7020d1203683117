import ControlAPI
import DBus
import EventLoop
import QuaverClient
import TestSupport
import XCTest

/// The client library the CLI, the Snapcast plugin and the benchmarks share, against the real quaverd.
final class QuaverClientTests: XCTestCase {
    func testTypedPropertiesAndMethodsReachQuaverd() throws {
        let tone = try Media.longTone()
        let daemon = try RunningDaemon([Media.uri(tone)])
        defer { daemon.process.stop() }
        let client = QuaverClient(connection: daemon.client)
        try client.setVolume(0.25)
        try client.setLoopStatus(ControlAPI.LoopStatus.track)
        try client.setShuffle(true)
        XCTAssertEqual(try client.volume(), 0.25, accuracy: 0.001)
        XCTAssertEqual(try client.loopStatus(), "Track")
        XCTAssertTrue(try client.shuffle())
        try client.play()
        daemon.waitUntil("Playing") { (try? client.playbackStatus) == "Playing" }
        // SetPosition sent as soon as PlaybackStatus said Playing did not move the position (seen once here):
        // it goes once the track is really playing.
        daemon.waitUntil("the position moving") { ((try? client.position) ?? 0) > 0 }
        let track = try XCTUnwrap(try client.metadata[MetadataKey.trackID]?.objectPathValue)
        XCTAssertEqual(try client.trackIDs().map(\.description), [track.description])
        XCTAssertEqual(try client.queueLength(), 1)
        try client.setPosition(track: track, to: 40_000_000)
        daemon.waitUntil("the position at 40 s") { ((try? client.position) ?? 0) >= 40_000_000 }
        XCTAssertFalse(try client.identity.isEmpty)
        try client.quit()
        daemon.waitUntil("quaverd's exit after Quit") { !daemon.process.isRunning }
    }

    /// A playlist saved through org.quaver.Quaver1 is listed and activated through MPRIS Playlists.
    func testSavedPlaylistIsListedAndActivated() throws {
        let tone = try Media.longTone()
        let daemon = try RunningDaemon([Media.uri(tone)])
        defer { daemon.process.stop() }
        let client = QuaverClient(connection: daemon.client)
        try client.savePlaylist("Evening")
        try client.clearQueue()
        let playlist = try XCTUnwrap(try client.playlists(from: 0, count: 10).first { $0.name == "Evening" })
        try client.activatePlaylist(playlist.id)
        daemon.waitUntil("the playlist playing") { (try? client.playbackStatus) == "Playing" }
        XCTAssertEqual(try client.queueLength(), 1)
    }

    func testFollowedPlayerSeesChangesAndQuaverdLeaving() throws {
        let daemon = try RunningDaemon()
        let client = QuaverClient(connection: daemon.client)
        let player = try FollowedPlayer(client: client)
        var reads = 0
        player.changed = { reads += 1 }
        player.read()
        XCTAssertTrue(pump(until: { reads > 0 }, timeout: 10), "the first read never came")
        XCTAssertEqual(player.properties[PlayerProperty.playbackStatus]?.stringValue, "Stopped")
        var answer: String? = "none yet"
        player.set(PlayerProperty.volume, .double(0.5)) { answer = $0 }
        XCTAssertTrue(pump(until: { player.properties[PlayerProperty.volume]?.doubleValue == 0.5 }, timeout: 10),
                      "the Volume change was not followed: \(player.properties)")
        XCTAssertNil(answer)
        daemon.process.stop()
        XCTAssertTrue(pump(until: { player.properties.isEmpty }, timeout: 10), "quaverd's leaving was not followed")
    }

    /// Without quaverd (and no activation file), a call fails with the words the CLI prints, and a
    /// quaverd error keeps quaverd's own message.
    func testFailuresAreWordedForAPerson() throws {
        let bus = try PrivateBus()
        let client = QuaverClient(connection: try Connection(address: bus.address))
        XCTAssertThrowsError(try client.play()) { error in
            guard case .daemonAbsent = error as? QuaverClientError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("quaverd is not running"), "\(error)")
        }
        let daemon = try RunningDaemon(bus: bus)
        defer { daemon.process.stop() }
        XCTAssertThrowsError(try QuaverClient(connection: daemon.client).loadPlaylist("no such playlist", play: false)) { error in
            guard case .failed(let dbusError) = error as? QuaverClientError else { return XCTFail("\(error)") }
            XCTAssertEqual("\(error)", dbusError.message)
            XCTAssertFalse(dbusError.message.isEmpty)
        }
    }
}
