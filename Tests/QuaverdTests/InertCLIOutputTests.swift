import DBus
import Foundation
import TestSupport
import XCTest

/// Issue 20 item 3 end to end: a real FLAC whose tags hold escape sequences, BEL and a bidi override, and a
/// file whose name holds them, read by the real quaverd (GStreamer's tag reader) and shown by the real
/// `quaver`: what reaches the terminal is placeholders only, and `--json` carries the exact text, escaped.
final class InertCLIOutputTests: XCTestCase {
    static let hostileTitle = "Evil \u{1B}]0;pwned\u{07} \u{1B}[2J\u{1B}[31mRED \u{202E}3pm.exe"
    static let inertTitle = "Evil ␛]0;pwned␇ ␛[2J␛[31mRED <U+202E>3pm.exe"
    static let hostileName = "name \u{1B}[2J\u{07}\u{202E}x"

    var daemon: RunningDaemon!
    var music: TemporaryDirectory!

    override func setUpWithError() throws {
        daemon = try RunningDaemon()
        music = try TemporaryDirectory(prefix: "inert-music")
        let fixtures = try Media.fixtures()
        let tagged = music.url.appendingPathComponent("1 tagged.flac")
        try FileManager.default.copyItem(at: fixtures.flac, to: tagged)
        try Fixtures.run("metaflac", ["--remove-tag=TITLE", "--remove-tag=ARTIST", "--set-tag=TITLE=\(Self.hostileTitle)",
                                      "--set-tag=ARTIST=Art\u{1B}[8mist", tagged.path])
        // No tags: the daemon shows the file name as the title.
        try FileManager.default.copyItem(at: fixtures.sweepHalvesWAV.0,
                                         to: music.url.appendingPathComponent("2 \(Self.hostileName).wav"))
    }

    override func tearDown() {
        daemon = nil
        music = nil
    }

    @discardableResult
    func quaver(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let binary = productsDirectory.appendingPathComponent("quaver").path
        let result = try ChildProcess.run(binary, [arguments[0], "--bus-address", daemon.bus.address] + arguments.dropFirst(),
                                          environment: daemon.bus.environment, timeout: 20)
        XCTAssertEqual(result.status, 0, "quaver \(arguments): \(result.stderr)", file: file, line: line)
        assertInert(result.stdout + result.stderr, file: file, line: line)
        return result.stdout
    }

    func assertInert(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
        let active = output.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: return false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
            default: return false
            }
        }
        XCTAssertTrue(active.isEmpty, "active characters in \(output.debugDescription)", file: file, line: line)
    }

    func testHostileTagsAndFileNamesReachTheTerminalAsPlaceholders() throws {
        try quaver("add", music.path)
        daemon.waitUntil("the tags read", {
            (try? self.quaver("queue").contains(Self.inertTitle)) == true
        })
        let queue = try quaver("queue")
        XCTAssertTrue(queue.contains("\(Self.inertTitle) – Art␛[8mist"), queue)
        XCTAssertTrue(queue.contains("2 name ␛[2J␇<U+202E>x"), queue)

        try quaver("play")
        daemon.waitUntil("playing", { self.daemon.status == "Playing" })
        XCTAssertTrue(try quaver("status").hasPrefix("playing  \(Self.inertTitle) – Art␛[8mist  0:"))
        XCTAssertEqual(try quaver("status", "--format", "{{title}}|{{artist}}"), "\(Self.inertTitle)|Art␛[8mist\n")

        let json = try quaver("status", "--json")
        let status = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual(status?["title"] as? String, Self.hostileTitle, json)
        XCTAssertEqual(status?["artists"] as? [String], ["Art\u{1B}[8mist"], json)
        let queueJSON = try JSONSerialization.jsonObject(with: Data(try quaver("queue", "--json").utf8)) as? [String: Any]
        let titles = (queueJSON?["tracks"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, [Self.hostileTitle, "2 \(Self.hostileName)"])
    }
}
