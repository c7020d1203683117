import Foundation
import PlayerCore
import TestSupport
import XCTest

/// The real `quaver` binary against the in-process service: each command, then its effect on the Player.
final class CLICommandTests: XCTestCase {
    var service: QuaverService!

    override func setUpWithError() throws {
        service = try QuaverService()
        service.engine.timeScale = 0  // positions move only when a test says so
    }

    override func tearDown() { service = nil }

    @discardableResult
    private func quaver(_ arguments: String..., status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line)
        throws -> (status: Int32, out: String, err: String) {
        try service.quaver(arguments, expectStatus: status, file: file, line: line)
    }

    /// Waits until the engine's events (duration, seekability, seeks done) have reached the player.
    private func settle() { XCTAssertTrue(service.engine.deliverEvents()) }

    func testAddFoldersPlaylistsURLsAndPositions() throws {
        let album = try service.makeFiles(["10 ten.flac", "2 two.flac", "1 one.flac", "cover.jpg"], in: "album")
        let loose = try service.makeFiles(["x.ogg", "y.ogg", "z.ogg"])
        let playlist = service.media.path + "/list.m3u"
        try "#EXTM3U\nx.ogg\nhttp://radio.example/stream.mp3\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        let added = try quaver("add", service.media.path + "/album", playlist)
        XCTAssertEqual(added.out, "queued 5 tracks\n")
        XCTAssertEqual(service.queueURIs, [album[2], album[1], album[0], loose[0], "http://radio.example/stream.mp3"],
                       "folders in natural order, without the cover; playlists expanded")
        try quaver("add", "--start", service.media.path + "/y.ogg")
        try quaver("jump", "2")
        try quaver("add", "--next", service.media.path + "/z.ogg")
        XCTAssertEqual(service.queueURIs, [loose[1], album[2], loose[2], album[1], album[0], loose[0],
                                           "http://radio.example/stream.mp3"])
        XCTAssertEqual(service.player.status, .stopped)
        try quaver("add", "--play", service.media.path + "/y.ogg")
        XCTAssertEqual(service.player.currentTrack?.id, service.player.tracks.last?.id)
        XCTAssertEqual(service.player.status, .playing)
    }

    func testPlayReplacesTheQueueOrResumes() throws {
        let uris = try service.makeFiles(["a.flac", "b.flac", "c.flac"])
        service.player.add([uris[0]])
        try quaver("play", service.media.path + "/b.flac", service.media.path + "/c.flac")
        XCTAssertEqual(service.queueURIs, [uris[1], uris[2]])
        XCTAssertEqual(service.player.currentTrack?.uri, uris[1])
        XCTAssertEqual(service.player.status, .playing)
        try quaver("pause")
        XCTAssertEqual(service.player.status, .paused)
        try quaver("play")
        XCTAssertEqual(service.player.status, .playing)
        try quaver("toggle")
        XCTAssertEqual(service.player.status, .paused)
        try quaver("toggle")
        XCTAssertEqual(service.player.status, .playing)
        try quaver("stop")
        XCTAssertEqual(service.player.status, .stopped)
    }

    func testQueueListingRemoveMoveClear() throws {
        let uris = try service.makeFiles(["a.flac", "b.flac", "c.flac", "d.flac"])
        let ids = service.player.add(uris)
        var tags = TrackTags()
        tags.title = "Bee"
        tags.artists = ["Ann"]
        service.player.updateTags(ids[1], tags)
        service.player.goTo(ids[1])
        service.player.play()
        settle()
        XCTAssertEqual(try quaver("queue").out, "  1  a\n▶ 2  Bee – Ann  3:00\n  3  c\n  4  d\n")
        XCTAssertEqual(try quaver("queue", "--ids").out.split(separator: "\n")[0], "  /org/quaver/Track/\(ids[0].rawValue)  a")
        try quaver("remove", "1", "/org/quaver/Track/\(ids[3].rawValue)")
        XCTAssertEqual(service.queueURIs, [uris[1], uris[2]])
        try quaver("move", "2", "1")
        XCTAssertEqual(service.queueURIs, [uris[2], uris[1]])
        try quaver("move", "1", "2")
        XCTAssertEqual(service.queueURIs, [uris[1], uris[2]])
        try quaver("clear")
        XCTAssertTrue(service.player.tracks.isEmpty)
        XCTAssertEqual(service.player.status, .stopped)
        XCTAssertEqual(try quaver("queue").out, "the queue is empty\n")
    }

    /// Longer than one page of GetQueueRange: every entry, in order, once.
    func testQueueListsAQueueLongerThanOnePage() throws {
        let uri = try service.makeFiles(["tone.flac"])[0]
        let ids = service.player.add(Array(repeating: uri, count: 2_345))
        let lines = try quaver("queue", "--ids").out.split(separator: "\n")
        XCTAssertEqual(lines.count, ids.count)
        XCTAssertEqual(lines.map { $0.dropFirst(2).split(separator: " ")[0] }, ids.map { "/org/quaver/Track/\($0.rawValue)"[...] })
    }

    func testNavigationAndJump() throws {
        let uris = try service.makeFiles(["a.flac", "b.flac", "c.flac"])
        service.player.add(uris)
        try quaver("next")
        XCTAssertEqual(service.player.currentTrack?.uri, uris[1])
        try quaver("jump", "3")
        XCTAssertEqual(service.player.currentTrack?.uri, uris[2])
        try quaver("prev")
        XCTAssertEqual(service.player.currentTrack?.uri, uris[1])
        XCTAssertEqual(service.player.status, .stopped, "navigation keeps Stopped")
    }

    func testSeekForms() throws {
        let uris = try service.makeFiles(["a.flac"])
        service.player.add(uris)
        service.player.play()
        settle()
        let seeks: [(String, Duration)] = [("90", .seconds(90)), ("+10", .seconds(100)), ("-30", .seconds(70)),
                                           ("1:05", .seconds(65)), ("+0:05", .seconds(70)), ("2.5", .milliseconds(2500))]
        for (argument, expected) in seeks {
            try quaver("seek", argument)
            settle()
            XCTAssertEqual(service.player.position, expected, "seek \(argument)")
        }
        XCTAssertTrue(try quaver("seek", "9:00", status: 1).err.contains("past the end"))
        XCTAssertTrue(try quaver("seek", "soon", status: 64).err.contains("cannot read"))
        XCTAssertEqual(service.player.position, .milliseconds(2500))
    }

    func testSettings() throws {
        service.player.add(try service.makeFiles(["a.flac"]))
        XCTAssertEqual(try quaver("volume", "50").out, "volume 50%\n")
        XCTAssertEqual(service.player.volume, 0.5)
        XCTAssertEqual(try quaver("volume", "0.25").out, "volume 25%\n")
        XCTAssertEqual(service.player.volume, 0.25)
        XCTAssertEqual(try quaver("volume").out, "volume 25%\n")
        try quaver("volume", "250", status: 64)
        XCTAssertEqual(try quaver("rate", "1.5").out, "rate 1.5\n")
        XCTAssertEqual(service.player.rate, 1.5)
        XCTAssertTrue(try quaver("rate", "7", status: 1).err.contains("Error:"))
        XCTAssertEqual(service.player.rate, 1.5)
        XCTAssertEqual(try quaver("loop", "track").out, "loop track\n")
        XCTAssertEqual(service.player.loopMode, .track)
        XCTAssertEqual(try quaver("loop", "playlist").out, "loop playlist\n")
        XCTAssertEqual(service.player.loopMode, .playlist)
        XCTAssertEqual(try quaver("shuffle", "on").out, "shuffle on\n")
        XCTAssertTrue(service.player.isShuffled)
        XCTAssertEqual(try quaver("shuffle").out, "shuffle on\n")
        try quaver("shuffle", "off")
        XCTAssertFalse(service.player.isShuffled)
    }

    func testStatus() throws {
        XCTAssertEqual(try quaver("status").out, "stopped\n")
        let ids = service.player.add(try service.makeFiles(["a.flac"]))
        var tags = TrackTags()
        tags.title = "Song"
        tags.artists = ["Ann"]
        service.player.updateTags(ids[0], tags)
        service.player.play()
        settle()
        service.engine.elapse(.seconds(65))
        XCTAssertEqual(try quaver("status").out, "playing  Song – Ann  1:05 / 3:00\n")
    }

    func testRefusalsLeaveTheQueueUnchanged() throws {
        let uris = try service.makeFiles(["a.flac"])
        service.player.add(uris)
        let fifo = service.media.path + "/pipe.flac"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let refused = try quaver("add", service.media.path + "/a.flac", fifo, status: 1)
        XCTAssertTrue(refused.err.contains("item 2") && refused.err.contains("not a regular file"), refused.err)
        let nothing = try quaver("add", "/no/such/file.flac", "ftp://host/x.mp3", status: 1)
        XCTAssertTrue(nothing.err.contains("\"/no/such/file.flac\": no such file or folder"), nothing.err)
        XCTAssertTrue(nothing.err.contains("nothing to queue"), nothing.err)
        XCTAssertTrue(try quaver("remove", "5", status: 1).err.contains("no entry 5"))
        XCTAssertTrue(try quaver("jump", "/org/quaver/Track/999", status: 1).err.contains("neither an index"))
        XCTAssertEqual(service.queueURIs, uris)
    }

    func testDaemonAbsentIsExplained() throws {
        let emptyBus = try PrivateBus()
        for command in [["status"], ["next"], ["queue"]] {
            let result = try ChildProcess.run(QuaverService.quaverBinary, command + ["--bus-address", emptyBus.address])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.contains("quaverd is not running"), result.stderr)
            XCTAssertTrue(result.stderr.contains("systemctl --user start quaverd"), result.stderr)
        }
    }
}
