import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// The real `quaver` CLI against the real quaverd on a private bus: a folder and a playlist go in through
/// org.quaver.Quaver1, transport goes through MPRIS, and the effects are read back over D-Bus.
final class CLIEndToEndTests: XCTestCase {
    var daemon: RunningDaemon!
    var music: TemporaryDirectory!

    override func setUpWithError() throws {
        daemon = try RunningDaemon()
        music = try TemporaryDirectory(prefix: "cli-music")
        let fixtures = try Media.fixtures()
        // Natural order must put "2 …" before "10 …".
        for (name, source) in [("10 ten.flac", fixtures.flac), ("2 two.mp3", fixtures.mp3), ("1 one.wav", fixtures.wav)] {
            try FileManager.default.copyItem(at: source, to: music.url.appendingPathComponent(name))
        }
        try "#EXTM3U\r\n# a comment\r\n1 one.wav\r\nmissing.flac\r\n".write(
            to: music.url.appendingPathComponent("list.m3u"), atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        daemon = nil
        music = nil
    }

    @discardableResult
    func quaver(_ arguments: String..., expectStatus: Int32 = 0,
                file: StaticString = #filePath, line: UInt = #line) throws -> (stdout: String, stderr: String) {
        let binary = productsDirectory.appendingPathComponent("quaver").path
        // `--bus-address` belongs to each subcommand, so it follows the command's name.
        let withBus = [arguments[0], "--bus-address", daemon.bus.address] + arguments.dropFirst()
        let result = try ChildProcess.run(binary, withBus,
                                          environment: daemon.bus.environment, timeout: 20)
        XCTAssertEqual(result.status, expectStatus, "quaver \(arguments): \(result.stderr)", file: file, line: line)
        return (result.stdout, result.stderr)
    }

    var queuedFileNames: [String] {
        get throws {
            let reply = try daemon.call("GetQueue", on: ControlAPI.quaverInterface)
            return (reply[0].arrayValue ?? []).compactMap { entry -> String? in
                let metadata = entry.arrayValue?[1].dictionaryValue
                return metadata?["xesam:url"]?.unwrapped.stringValue.flatMap { URL(string: $0)?.lastPathComponent }
            }
        }
    }

    func testAddFolderAndPlaylistThenDriveTransport() throws {
        try quaver("add", music.path + "/list.m3u")
        try quaver("add", music.path)
        XCTAssertEqual(try queuedFileNames, ["1 one.wav", "1 one.wav", "2 two.mp3", "10 ten.flac"])

        try quaver("jump", "3")
        try quaver("play")
        daemon.waitUntil("playing", { self.daemon.status == "Playing" })
        XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue.flatMap { URL(string: $0)?.lastPathComponent },
                       "2 two.mp3")
        try quaver("seek", "0:05")
        daemon.waitUntil("position 5 s", { abs(self.daemon.positionSeconds - 5) < 1 })
        try quaver("volume", "40")
        XCTAssertEqual(try daemon.get("Volume").doubleValue ?? -1, 0.4, accuracy: 0.001)
        try quaver("next")
        daemon.waitUntil("the fourth track", {
            self.daemon.metadata["xesam:url"]?.stringValue?.hasSuffix("10%20ten.flac") == true })
        try quaver("pause")
        daemon.waitUntil("paused", { self.daemon.status == "Paused" })

        let status = try quaver("status").stdout
        XCTAssertTrue(status.contains("Paused") || status.lowercased().contains("paused"), status)
        XCTAssertTrue(status.contains(Media.fixtureTitle), status)

        let queue = try quaver("queue").stdout
        XCTAssertEqual(queue.split(separator: "\n").count, 4, queue)

        try quaver("remove", "1")
        try quaver("clear")
        XCTAssertEqual(try queuedFileNames, [])
        XCTAssertEqual(daemon.status, "Stopped")
    }

    func testRefusedItemsLeaveTheQueueAndTheDaemonAlone() throws {
        try quaver("add", music.path + "/1 one.wav")
        let refused = try quaver("add", "ftp://example.invalid/a.flac", expectStatus: 1)
        XCTAssertFalse(refused.stderr.isEmpty)
        XCTAssertEqual(try queuedFileNames, ["1 one.wav"])
        daemon.assertIntact(tracks: daemon.tracks)
    }
}

extension Media {
    static let fixtureTitle = Fixtures.title
}
