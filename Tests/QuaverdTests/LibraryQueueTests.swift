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
        let daemon = try RunningDaemon(home: home, launcher: try RunningDaemon.withoutOverridingPermissions())
        daemon.waitUntil("the first scan", timeout: 20) {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 40
        }
        for name in names { XCTAssertEqual(chmod(music.appendingPathComponent("Album/\(name).flac").path, 0), 0) }

        let queued = try daemon.call("AddQuery", [.string("indexed"), .string("end"), .boolean(false)],
                                     on: ControlAPI.libraryInterface)
        XCTAssertEqual(queued.first?.int64Value, 40)
        assertIndexedTags(daemon, titles: names.map { "Song \($0)" })

        // The library's smart playlist "Recently added" (newest first) carries them too.
        let recentlyAdded = ControlAPI.PlaylistPath.path(of: String(repeating: "0", count: 31) + "3")
        try daemon.call("ActivatePlaylist", [.objectPath(ObjectPath(recentlyAdded))], on: ControlAPI.playlistsInterface)
        assertIndexedTags(daemon, titles: nil)
    }

    /// Every queued track shows the index's tags and length at once; `titles` in queue order, when given.
    private func assertIndexedTags(_ daemon: RunningDaemon, titles: [String]?, file: StaticString = #filePath, line: UInt = #line) {
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        let reply = try? daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
        let metadata = (reply?.first?.arrayValue ?? []).map { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
        XCTAssertEqual(metadata.count, 40, file: file, line: line)
        let shown = metadata.compactMap { $0[MetadataKey.title]?.stringValue }
        XCTAssertEqual(titles ?? shown, shown, file: file, line: line)
        XCTAssertEqual(shown.count, 40, "titles: \(shown)", file: file, line: line)
        for track in metadata {
            XCTAssertEqual(track[MetadataKey.artist]?.stringArrayValue, ["Indexed"], file: file, line: line)
            XCTAssertEqual(track[MetadataKey.album]?.stringValue, "The Index", file: file, line: line)
            XCTAssertEqual(Double(track[MetadataKey.length]?.int64Value ?? 0) / 1_000_000, 1, accuracy: 0.1, file: file, line: line)
        }
    }

    /// A library track that becomes current is announced with the index's tags and its embedded cover, which alone
    /// is read from the file (TagLib), with no preroll of the file. To tell the two apart, the file's title changes
    /// behind the index's back (the same size and modification time, so the index keeps its own): the title
    /// announced is the index's.
    func testTheTrackThatStartsIsAnnouncedFromTheIndexWithItsCover() throws {
        let home = try TemporaryDirectory(prefix: "library-current")
        let music = home.url.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let fixtures = try Media.fixtures()
        let file = music.appendingPathComponent("a.flac"), changed = home.url.appendingPathComponent("b.flac")
        try fixtures.taggedFLAC(at: file, title: "Index Title", artist: "Covered", album: "Pictures", seconds: 30)
        try FileManager.default.copyItem(at: file, to: changed)
        try Fixtures.run("metaflac", ["--remove-tag=TITLE", "--set-tag=TITLE=Files Title", changed.path])  // in its padding
        let daemon = try RunningDaemon(home: home)
        daemon.waitUntil("indexed", timeout: 20) {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 1
        }
        var indexed = stat(), replacement = stat()
        XCTAssertEqual(stat(file.path, &indexed), 0)
        XCTAssertEqual(stat(changed.path, &replacement), 0)
        XCTAssertEqual(indexed.st_size, replacement.st_size, "the two versions must be the same size")
        var times = [indexed.st_atim, indexed.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, changed.path, &times, 0), 0)
        XCTAssertEqual(rename(changed.path, file.path), 0)

        let queued = try daemon.call("PlayQuery", [.string("covered")], on: ControlAPI.libraryInterface)
        XCTAssertEqual(queued.first?.int64Value, 1)
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        let metadata = daemon.metadata
        XCTAssertEqual(metadata[MetadataKey.title]?.stringValue, "Index Title")
        let art = try XCTUnwrap(URL(string: metadata[MetadataKey.artURL]?.stringValue ?? ""), "\(metadata)")
        XCTAssertEqual([UInt8](try Data(contentsOf: art)), fixtures.coverBytes)
    }
}
