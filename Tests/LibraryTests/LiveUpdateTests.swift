import Foundation
import Library
import TestSupport
import XCTest

/// The index follows the music folder while it is watched: each change shows within the 5 s (the
/// checks wait for the index itself, polling with that bound).
final class LiveUpdateTests: XCTestCase {
    private var library: ScannedLibrary!
    private var watch: FolderWatch!

    override func setUpWithError() throws {
        library = try ScannedLibrary()
        try library.write([TaggedTree.File("album/1.flac", ["TITLE": "First"])])
        library.scan()
        let scanner = library.scanner
        watch = try FolderWatch(folders: [Array(library.music.path.utf8)], note: { _ in }) { scanner.update($0) }
        watch.start()
        // The watch is in place once a file written now shows up.
        try library.write([TaggedTree.File("ready.mp3", ["TITLE": "Ready"])])
        XCTAssertTrue(try eventually(timeout: 5) { try library.titles("ready") == ["Ready"] })
    }

    override func tearDown() {
        watch?.stop()
        library?.scanner.waitUntilIdle()
        // XCTest keeps test case objects until the process ends: their folders go now.
        watch = nil
        library = nil
    }

    func testAFileAddedChangedRenamedAndRemovedShows() throws {
        try library.write([TaggedTree.File("album/2.ogg", ["TITLE": "Second"])])
        XCTAssertTrue(try eventually(timeout: 5) { try library.titles("second") == ["Second"] })
        try library.write([TaggedTree.File("album/2.ogg", ["TITLE": "Second Take"])])
        XCTAssertTrue(try eventually(timeout: 5) { try library.titles("take") == ["Second Take"] })
        let album = library.music.appendingPathComponent("album")
        try FileManager.default.moveItem(at: album.appendingPathComponent("2.ogg"), to: album.appendingPathComponent("renamed.ogg"))
        XCTAssertTrue(try eventually(timeout: 5) { try library.search("take").map(\.fileName) == ["renamed.ogg"] })
        try FileManager.default.removeItem(at: album.appendingPathComponent("renamed.ogg"))
        XCTAssertTrue(try eventually(timeout: 5) { try library.titles("take").isEmpty })
    }

    func testAFolderTreeMovedInAndOutShows() throws {
        let outside = library.home.url.appendingPathComponent("elsewhere/band")
        try TaggedTree.write([TaggedTree.File("disc/a.flac", ["TITLE": "Moved In"]),
                              TaggedTree.File("disc/deeper/b.mp3", ["TITLE": "Moved Deep"])], under: outside)
        try FileManager.default.moveItem(at: outside, to: library.music.appendingPathComponent("band"))
        XCTAssertTrue(try eventually(timeout: 5) { try library.search("moved").count == 2 })
        // A file added inside the moved tree: the tree is watched now too.
        try library.write([TaggedTree.File("band/disc/deeper/c.wv", ["TITLE": "Moved Later"])])
        XCTAssertTrue(try eventually(timeout: 5) { try library.search("moved").count == 3 })
        try FileManager.default.moveItem(at: library.music.appendingPathComponent("band"),
                                         to: library.home.url.appendingPathComponent("gone"))
        XCTAssertTrue(try eventually(timeout: 5) { try library.search("moved").isEmpty })
        XCTAssertEqual(try library.titles("first"), ["First"])
    }
}

/// A scan only reads. TagLib opened every file read-write, and closing a file opened for writing is a change to
/// inotify (IN_CLOSE_WRITE): each file a scan read came back through the watch, and the scanner looked at all of
/// them again (100 000 after a first index, at the idle policy, for minutes).
final class ScanIsNoChangeTests: XCTestCase {
    func testTheWatchSeesNoChangeFromAScan() throws {
        let library = try ScannedLibrary()
        try library.write(TaggedTree.formats.enumerated().map { TaggedTree.File("album/\($0.offset).\($0.element)", ["TITLE": "Song"]) })
        let seen = SeenPaths()
        let watch = try FolderWatch(folders: [Array(library.music.path.utf8)], note: { _ in }) { seen.add($0) }
        defer { watch.stop() }
        watch.start()
        try library.write([TaggedTree.File("ready.flac", ["TITLE": "Ready"])])
        XCTAssertTrue(eventually(timeout: 5) { seen.contains("ready.flac") }, "the watch never started")
        seen.clear()
        library.scan()
        XCTAssertEqual(try library.titles("song").count, TaggedTree.formats.count)
        // Events come in order: once a file written after the scan is seen, anything the scan caused was seen before.
        try library.write([TaggedTree.File("after.flac", ["TITLE": "After"])])
        XCTAssertTrue(eventually(timeout: 5) { seen.contains("after.flac") })
        XCTAssertEqual(seen.paths.filter { $0.contains("/album") }, [])
    }
}

/// What a folder watch reported, from its thread.
private final class SeenPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [String] = []

    var paths: [String] { lock.withLock { all } }
    func add(_ batch: [[UInt8]]) { lock.withLock { all += batch.map { String(decoding: $0, as: UTF8.self) } } }
    func clear() { lock.withLock { all = [] } }
    func contains(_ name: String) -> Bool { paths.contains { $0.hasSuffix("/" + name) } }
}
