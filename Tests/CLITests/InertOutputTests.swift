import Foundation
import PlayerCore
import TestSupport
import XCTest

/// Tags, file names and the daemon's error text with escape sequences, BEL and bidi overrides reach the
/// terminal only as visible placeholders, in every way `quaver` prints them.
final class InertOutputTests: XCTestCase {
    static let hostileTitle = "Evil \u{1B}]0;pwned\u{07} \u{1B}[2J\u{1B}[31mRED \u{9B}2J \u{202E}3pm.txt"
    static let inertTitle = "Evil ␛]0;pwned␇ ␛[2J␛[31mRED <U+009B>2J <U+202E>3pm.txt"

    var service: QuaverService!

    override func setUpWithError() throws {
        service = try QuaverService()
        service.engine.timeScale = 0
    }

    override func tearDown() { service = nil }

    func assertInert(_ output: String, file: StaticString = #filePath, line: UInt = #line) {
        let active = output.unicodeScalars.filter { $0 != "\n" && (InertScalars.contains($0)) }
        XCTAssertTrue(active.isEmpty, "active characters \(active.map { String($0.value, radix: 16) }) in \(output.debugDescription)",
                      file: file, line: line)
    }

    @discardableResult
    private func addHostileTrack() throws -> TrackID {
        let ids = service.player.add(try service.makeFiles(["a.flac"]))
        var tags = TrackTags()
        tags.title = Self.hostileTitle
        tags.artists = ["Art\u{1B}[8mist"]
        tags.album = "Al\u{07}bum"
        service.player.updateTags(ids[0], tags)
        return ids[0]
    }

    func testStatusAndQueueShowHostileTagsAsPlaceholders() throws {
        try addHostileTrack()
        let status = try service.quaver(["status"]).out
        assertInert(status)
        XCTAssertEqual(status, "stopped  \(Self.inertTitle) – Art␛[8mist  0:00\n")
        let queue = try service.quaver(["queue"]).out
        assertInert(queue)
        XCTAssertTrue(queue.contains(Self.inertTitle), queue)
        let format = try service.quaver(["status", "--format", "{{artist}} | {{title}} | {{album}}"]).out
        XCTAssertEqual(format, "Art␛[8mist | \(Self.inertTitle) | Al␇bum\n")
    }

    func testJSONCarriesTheTitleEscapedAndExact() throws {
        try addHostileTrack()
        for arguments in [["status", "--json"], ["queue", "--json"]] {
            let out = try service.quaver(arguments).out
            assertInert(out)
            let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
            let track = arguments[0] == "queue" ? (object?["tracks"] as? [[String: Any]])?.first : object
            XCTAssertEqual(track?["title"] as? String, Self.hostileTitle, out)
            XCTAssertEqual(track?["artists"] as? [String], ["Art\u{1B}[8mist"], out)
        }
    }

    func testFollowedStatusStaysInertWhenTheTitleChanges() throws {
        let id = try addHostileTrack()
        let follower = try service.startQuaver(["status", "--follow"])
        defer { follower.stop() }
        XCTAssertTrue(pump(until: { follower.standardOutput.contains(Self.inertTitle) }, timeout: 10),
                      follower.standardOutput)
        var tags = TrackTags()
        tags.title = "Stream \u{1B}[2J\u{202E}now"  // as an ICY StreamTitle arrives: a tag update while playing
        service.player.updateTags(id, tags)
        XCTAssertTrue(pump(until: { follower.standardOutput.contains("Stream ␛[2J<U+202E>now") }, timeout: 10),
                      follower.standardOutput)
        assertInert(follower.standardOutput)
    }

    func testFileNamesAndErrorTextArePrintedInert() throws {
        let hostileName = "x\u{1B}[2J\u{202E}y"
        let files = try service.makeFiles([hostileName + ".flac"])
        service.player.add(files)
        let queue = try service.quaver(["queue"]).out
        XCTAssertEqual(queue, "▶ 1  x␛[2J<U+202E>y\n", "the title falls back to the file name")

        let missing = try service.quaver(["add", service.media.path + "/gone\u{1B}]0;t\u{07}.flac"], expectStatus: 1)
        assertInert(missing.err)
        XCTAssertTrue(missing.err.contains("gone␛]0;t␇.flac"), missing.err)

        let jump = try service.quaver(["jump", "/org/quaver/Track/\u{1B}[2J"], expectStatus: 1)
        assertInert(jump.err)

        service.player.play()
        service.engine.emit(.failed(service.player.tracks[0].id, EngineError(.undecodable, "bad \u{1B}[31mdata\u{07}")))
        XCTAssertTrue(service.engine.deliverEvents())
        let error = try service.quaver(["status", "--format", "{{error}}"]).out
        XCTAssertEqual(error, "x␛[2J<U+202E>y: undecodable: bad ␛[31mdata␇\n")
    }
}

/// What a terminal acts on: C0 (but the line feed we print), DEL, C1, bidi formatting, line separators.
enum InertScalars {
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
            return true
        default: return false
        }
    }
}
