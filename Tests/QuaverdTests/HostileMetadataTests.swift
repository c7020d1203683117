import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// Tags built to hurt: the daemon reads them in the background and while playing, publishes only valid,
/// bounded strings, writes no art that is too large or not an image, and goes on answering.
final class HostileMetadataTests: XCTestCase {
    /// `PublicText` in the daemon: 4 KiB per string (16 KiB for URLs), 100 entries per list.
    static let maximumStringBytes = 4096
    static let maximumURLBytes = 16384
    static let maximumListCount = 100

    func testHostileTagsArePublishedBoundedAndNoBadArtIsWritten() throws {
        let folder = try TemporaryDirectory(prefix: "hostile")
        let media = try HostileMedia(in: folder.url)
        let daemon = try RunningDaemon(media.all.map(\.path))
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        XCTAssertEqual(paths.count, media.all.count)
        daemon.waitUntil("every file read in the background", timeout: 30) {
            let reply = try? daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
            let tracks = (reply?.first?.arrayValue ?? []).map { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
            return tracks.count == paths.count && tracks.allSatisfy { $0["mpris:length"] != nil }
        }
        for path in paths {
            try daemon.call("GoTo", [.objectPath(path)], on: ControlAPI.trackListInterface)
            try daemon.call("Play")
            daemon.waitUntil("\(path) playing", timeout: 20) {
                daemon.currentTrack == path.rawValue && daemon.status == "Playing" && daemon.positionSeconds > 0.3
            }
            try assertBounded(daemon.getAll())
        }
        let metadata = try daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
        assertBounded(metadata[0])
        try assertBounded(daemon.call("GetQueue", on: ControlAPI.quaverInterface)[0])
        let tracks = (metadata.first?.arrayValue ?? []).map { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
        XCTAssertEqual(tracks[1]["xesam:title"]?.stringValue?.utf8.count, Self.maximumStringBytes, "the 1 MB title, cut")
        XCTAssertEqual(tracks[2]["xesam:artist"]?.stringArrayValue?.count, Self.maximumListCount, "10 000 artists, cut")
        XCTAssertEqual(tracks[2]["xesam:artist"]?.stringArrayValue?.first, "Artist 0")
        // GStreamer drops a Vorbis comment that is not UTF-8: the file name stands in.
        XCTAssertEqual(tracks[3]["xesam:title"]?.stringValue, "invalid text")
        XCTAssertEqual(tracks[3]["xesam:artist"]?.stringArrayValue, ["nul"], "cut at the NUL")
        XCTAssertNil(tracks[4]["mpris:artUrl"], "a cover that is not an image gives no artUrl")
        XCTAssertEqual(tracks[5]["xesam:title"]?.stringValue, "Huge cover")
        XCTAssertNil(tracks[5]["mpris:artUrl"], "a 50 MB cover is not written")

        let art = try FileManager.default.contentsOfDirectory(atPath: daemon.artDirectory.path)
        XCTAssertEqual(art.count, 1, "only the normal file's cover: \(art)")
        for name in art {
            let data = try Data(contentsOf: daemon.artDirectory.appendingPathComponent(name))
            XCTAssertTrue(data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && name.hasSuffix(".png"), name)
            XCTAssertLessThanOrEqual(data.count, 16 << 20)
        }
        XCTAssertTrue(daemon.process.isRunning, daemon.process.standardError)
        XCTAssertEqual(try daemon.playerctl("metadata", "title").isEmpty, false, "playerctl still reads the player")
    }

    /// Every string in `value` is valid (it arrived) and within its bound, every list within its count
    /// (the queue itself and the track list excepted: they are the user's).
    private func assertBounded(_ value: DBusValue, key: String = "", file: StaticString = #filePath, line: UInt = #line) {
        switch value {
        case .string(let text):
            let limit = key == "xesam:url" || key == "mpris:artUrl" ? Self.maximumURLBytes : Self.maximumStringBytes
            XCTAssertLessThanOrEqual(text.utf8.count, limit, key, file: file, line: line)
            XCTAssertFalse(text.utf8.contains(0), key, file: file, line: line)
        case .array(let element, let items):
            if element == "s" { XCTAssertLessThanOrEqual(items.count, Self.maximumListCount, key, file: file, line: line) }
            for item in items { assertBounded(item, key: key, file: file, line: line) }
        case .dictionary(_, _, let entries):
            for entry in entries { assertBounded(entry.value, key: entry.key.stringValue ?? key, file: file, line: line) }
        case .structure(let fields):
            for field in fields { assertBounded(field, key: key, file: file, line: line) }
        case .variant(let inner):
            assertBounded(inner, key: key, file: file, line: line)
        default:
            break
        }
    }

    private func assertBounded(_ properties: [String: DBusValue], file: StaticString = #filePath, line: UInt = #line) {
        for (name, value) in properties { assertBounded(value, key: name, file: file, line: line) }
    }
}
