import Foundation
import Library
import SQLite
import TestSupport
import XCTest

final class LibraryIndexTests: XCTestCase {
    func testADamagedIndexIsRebuiltWithOneNote() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("a.flac", ["TITLE": "Survivor"])])
        library.scan()
        try Data(repeating: 0x55, count: 8192).write(to: URL(fileURLWithPath: library.index.path))
        for suffix in ["-wal", "-shm"] { unlink(library.index.path + suffix) }
        let scanner = library.makeScanner(folders: [library.music.path])
        scanner.scanAll()
        scanner.waitUntilIdle()
        XCTAssertEqual(try library.titles("survivor"), ["Survivor"])
        XCTAssertEqual(library.notes.filter { $0.contains("rebuilding") }.count, 1, "\(library.notes)")
    }

    func testATruncatedIndexIsRebuilt() throws {
        let library = try ScannedLibrary()
        try library.write((1...300).map { TaggedTree.File("\($0).flac", ["TITLE": "Song \($0)"]) })
        library.scan()
        library.scanner.waitUntilIdle()
        let size = (try FileManager.default.attributesOfItem(atPath: library.index.path)[.size] as? Int) ?? 0
        XCTAssertEqual(truncate(library.index.path, off_t(size / 2)), 0)
        for suffix in ["-wal", "-shm"] { unlink(library.index.path + suffix) }
        let scanner = library.makeScanner(folders: [library.music.path])
        scanner.scanAll()
        scanner.waitUntilIdle()
        XCTAssertEqual(try library.search("song").count, 300, "\(library.notes)")
    }

    func testMusicFoldersComeFromTheSettingsAndUserDirs() throws {
        let home = try TemporaryDirectory(prefix: "music-folders")
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config"]
        XCTAssertEqual(MusicFolders.resolve(["$XDG_MUSIC_DIR", "~/More/", "/mnt/nas"], environment: environment),
                       [home.path + "/Music", home.path + "/More", "/mnt/nas"])
        try FileManager.default.createDirectory(atPath: home.path + "/config", withIntermediateDirectories: true)
        try Data("# written by xdg-user-dirs-update\nXDG_MUSIC_DIR=\"$HOME/Audio\"\n".utf8)
            .write(to: URL(fileURLWithPath: home.path + "/config/user-dirs.dirs"))
        XCTAssertEqual(MusicFolders.resolve(["$XDG_MUSIC_DIR", "$XDG_MUSIC_DIR/"], environment: environment),
                       [home.path + "/Audio"])
        XCTAssertEqual(MusicFolders.resolve([], environment: environment), [])
        XCTAssertEqual(MusicFolders.resolve(["~/x", "relative"], environment: [:]), [])
    }
}

final class LockedIndexTests: XCTestCase {
    /// Another connection holding the index's write lock: the scan says so in one line and gives up after the
    /// busy timeout (the index is a cache), searches go on, and the next scan once the lock is gone brings
    /// the index up to date.
    func testAnIndexLockedByAnotherWriterIsNotUpdatedUntilItIsFree() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("a.flac", ["TITLE": "Before"])])
        library.scan()
        let holder = try Database(path: library.index.path)
        try holder.execute("BEGIN EXCLUSIVE")
        try library.write([TaggedTree.File("b.flac", ["TITLE": "Later"])])
        library.scan()
        XCTAssertEqual(library.notes.filter { $0.contains("locked") }.count, 1, "\(library.notes)")
        XCTAssertEqual(try library.titles(""), ["Before"])
        try holder.execute("COMMIT")
        library.scan()
        XCTAssertEqual(Set(try library.search("").map(\.title)), ["Before", "Later"])
    }
}
