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
