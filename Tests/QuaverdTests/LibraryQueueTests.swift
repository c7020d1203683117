import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// What the library hands the queue, in the real quaverd.
final class LibraryQueueTests: XCTestCase {
    /// Tracks queued by query come with the index's tags and lengths. The files are made unreadable to quaverd
    /// once indexed (it runs without root's file capabilities), so nothing but the index can have told it.
    func testTracksQueuedByQueryComeWithTheIndexsTags() throws {
        let home = try TemporaryDirectory(prefix: "library-queue")
        let music = home.url.appendingPathComponent("Music")
        let names = (1...40).map { String(format: "%02d", $0) }
        try TaggedTree.write(names.map {
            TaggedTree.File("Album/\($0).flac", ["TITLE": "Song \($0)", "ARTIST": "Indexed", "ALBUM": "The Index",
                                                 "TRACKNUMBER": $0])
        }, under: music)
        let daemon = try RunningDaemon(home: home, launcher: RunningDaemon.withoutOverridingPermissions)
        daemon.waitUntil("the first scan", timeout: 20) {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 40
        }
        for name in names { XCTAssertEqual(chmod(music.appendingPathComponent("Album/\(name).flac").path, 0), 0) }

        let queued = try daemon.call("AddQuery", [.string("indexed"), .string("end"), .boolean(false)],
                                     on: ControlAPI.libraryInterface)
        XCTAssertEqual(queued.first?.int64Value, 40)
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        let reply = try daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
        let metadata = (reply.first?.arrayValue ?? []).map { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
        XCTAssertEqual(metadata.compactMap { $0[MetadataKey.title]?.stringValue }, names.map { "Song \($0)" })
        for track in metadata {
            XCTAssertEqual(track[MetadataKey.artist]?.stringArrayValue, ["Indexed"])
            XCTAssertEqual(track[MetadataKey.album]?.stringValue, "The Index")
            XCTAssertEqual(Double(track[MetadataKey.length]?.int64Value ?? 0) / 1_000_000, 1, accuracy: 0.1)
        }
    }
}
