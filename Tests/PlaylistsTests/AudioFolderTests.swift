import ControlAPI
import Foundation
import Playlists
import XCTest

final class AudioFolderTests: XCTestCase {
    func testNaturalOrderFilesFirstThenSubfoldersHiddenAndNonAudioSkipped() throws {
        let music = try MusicFolder()
        try music.touch("track10.flac", "Track2.FLAC", "track1.mp3", "cover.jpg", "notes.txt", "list.m3u", ".hidden.flac",
                        "Disc 10/a.ogg", "disc 2/b.opus", "disc 2/.secret/c.flac", ".git/d.flac", "noext",
                        "disc 2/inner/e.wv")
        let list = AudioFolder.scan(pathBytes: Array(music.path.utf8))
        XCTAssertEqual(list.skipped, [])
        XCTAssertEqual(list.uris, ["track1.mp3", "Track2.FLAC", "track10.flac", "disc 2/b.opus", "disc 2/inner/e.wv",
                                   "Disc 10/a.ogg"].map(music.uri))
    }

    func testFollowsLinksButListsALinkLoopOnce() throws {
        let music = try MusicFolder()
        try music.touch("real/a.flac", "elsewhere/b.flac")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: music.path + "/real/loop", withDestinationPath: music.path + "/real")
        try fm.createSymbolicLink(atPath: music.path + "/real/link.flac", withDestinationPath: music.path + "/elsewhere/b.flac")
        try fm.createSymbolicLink(atPath: music.path + "/real/dangling.flac", withDestinationPath: music.path + "/none")
        let list = AudioFolder.scan(pathBytes: Array((music.path + "/real").utf8))
        XCTAssertEqual(list.uris, [music.uri("real/a.flac"), music.uri("real/link.flac")])
    }

    func testANameThatIsNotUTF8KeepsItsBytesInTheURI() throws {
        let music = try MusicFolder()
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".flac".utf8)  // Latin-1 "café.flac"
        let path = Array(music.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(AudioFolder.scan(pathBytes: Array(music.path.utf8)).uris, [FileURI.encode(path: music.path) + "/caf%E9.flac"])
    }

    func testMissingFolderIsReported() throws {
        let music = try MusicFolder()
        XCTAssertEqual(AudioFolder.scan(pathBytes: Array((music.path + "/none").utf8)).skipped,
                       [SkippedEntry(playlist: nil, line: nil, reference: music.path + "/none", reason: .notFound)])
    }

    func testUnreadableSubfolderIsReportedAndTheRestListed() throws {
        try XCTSkipIf(geteuid() == 0, "root reads folders whatever their mode")
        let music = try MusicFolder()
        try music.touch("locked/a.flac", "open/b.flac")
        chmod(music.path + "/locked", 0)
        defer { chmod(music.path + "/locked", 0o755) }
        let list = AudioFolder.scan(pathBytes: Array(music.path.utf8))
        XCTAssertEqual(list.uris, [music.uri("open/b.flac")])
        XCTAssertEqual(list.skipped.map(\.reason), [.unreadable("Permission denied")])
    }

    func testExtensionCheck() {
        XCTAssertTrue(AudioFolder.isAudioFileName("x.Opus"))
        XCTAssertTrue(AudioFolder.isAudioFileName("a.b.mka"))
        XCTAssertFalse(AudioFolder.isAudioFileName(".flac"))
        XCTAssertFalse(AudioFolder.isAudioFileName("flac"))
        XCTAssertFalse(AudioFolder.isAudioFileName("x.flac.part"))
    }

    /// Benchmark (prints, asserts only correctness): 20 000 empty `.flac` files, 200 folders of 100.
    func testTwentyThousandFiles() throws {
        let music = try MusicFolder()
        let start = Date()
        for folder in 0..<200 {
            let dir = music.path + "/Album \(folder)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for track in 0..<100 {
                _ = FileManager.default.createFile(atPath: "\(dir)/Track \(track) – ünïcode #\(track).flac", contents: nil)
            }
        }
        let created = Date()
        let list = AudioFolder.scan(pathBytes: Array(music.path.utf8))
        let scanned = Date()
        XCTAssertEqual(list.entries.count, 20_000)
        XCTAssertEqual(list.uris.first, music.uri("Album 0/Track 0 – ünïcode #0.flac"))
        XCTAssertEqual(list.uris[101], music.uri("Album 1/Track 1 – ünïcode #1.flac"))
        XCTAssertEqual(list.uris.last, music.uri("Album 199/Track 99 – ünïcode #99.flac"))
        let flat = try MusicFolder()
        for track in 0..<20_000 {
            _ = FileManager.default.createFile(atPath: "\(flat.path)/t\(track).flac", contents: nil)
        }
        let flatStart = Date()
        let flatList = AudioFolder.scan(pathBytes: Array(flat.path.utf8))
        let flatScanned = Date()
        XCTAssertEqual(flatList.uris.suffix(2), [flat.uri("t19998.flac"), flat.uri("t19999.flac")])
        print(String(format: "BENCH AudioFolder.scan 20000 files: 200 folders %.3f s, one folder %.3f s (creating files took %.1f s)",
                     scanned.timeIntervalSince(created), flatScanned.timeIntervalSince(flatStart),
                     created.timeIntervalSince(start)))
    }
}
