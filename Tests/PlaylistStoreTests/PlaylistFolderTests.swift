import Foundation
import PlayerCore
import PlaylistStore
import TestSupport
import XCTest

/// The playlist files themselves: names refused, M3U8 written and read back, ids kept across saves and renames.
final class PlaylistFolderTests: XCTestCase {
    private var home: TemporaryDirectory!
    private var folder: PlaylistFolder!
    private var music: URL { home.url.appendingPathComponent("Music") }

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "playlist-folder")
        folder = PlaylistFolder(path: home.path + "/data/quaver/playlists", musicFolders: ["/elsewhere", music.path])
        try FileManager.default.createDirectory(at: music.appendingPathComponent("Album"), withIntermediateDirectories: true)
    }

    /// Files in the music folder and one outside it; the first two tagged and timed.
    private func queue(_ names: [String]) throws -> QueueSnapshot {
        let player = Player(engine: FakeEngine())
        var entries: [QueueEntry] = []
        for (index, name) in names.enumerated() {
            let url = name.hasPrefix("/") ? URL(fileURLWithPath: name) : music.appendingPathComponent(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data([0])))
            var tags = TrackTags()
            if index < 2 { tags.title = "Title \(index)\nwith a line end"; tags.artists = ["Artist"] }
            entries.append(QueueEntry(uri: url.absoluteString, tags: tags, duration: index < 2 ? .seconds(61) : nil))
        }
        player.add(entries, at: .end)
        return player.queueSnapshot
    }

    func testNamesThatAreNotPlainFileNamesAreRefused() {
        for bad in ["", "../x", "a/b", "x\u{0}y", "a\nb", "tab\there", ".hidden", " lead", "trail ",
                    String(repeating: "é", count: 101), "\u{85}c1"] {
            XCTAssertThrowsError(try PlaylistName(bad), "accepted \(bad.debugDescription)")
        }
        XCTAssertEqual(try PlaylistName("Road trip — 2026 (ça va)").fileName, "Road trip — 2026 (ça va).m3u8")
    }

    func testSavedPlaylistIsExtendedM3UWithPathsRelativeUnderTheMusicFolder() throws {
        let outside = home.path + "/elsewhere.flac"
        let tracks = try queue(["Album/01 One.flac", "Album/02 Two%.flac", outside])
        let saved = try folder.save(tracks, as: PlaylistName("mix"), now: 1_700_000_000)
        XCTAssertEqual(saved.entryCount, 3)
        XCTAssertEqual(saved.created, 1_700_000_000)
        let text = try String(contentsOfFile: folder.path + "/mix.m3u8", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "#EXTM3U")
        XCTAssertEqual(lines[1], "#QUAVER-ID:\(saved.id)")
        XCTAssertEqual(Array(lines[3...]), [
            "#EXTINF:61,Artist - Title 0 with a line end", "../../../Music/Album/01 One.flac",
            "#EXTINF:61,Artist - Title 1 with a line end", "../../../Music/Album/02 Two%.flac",
            "#EXTINF:-1,elsewhere", outside,
        ])
        let read = try folder.read(PlaylistName("mix"))
        XCTAssertEqual(read.entries.map(\.uri), try Self.uris(tracks))
        XCTAssertEqual(read.entries.first?.duration, .seconds(61))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["mix.m3u8"], "no temporary file left")
    }

    func testSavingOverAndRenamingKeepTheIdAndRenameNeverReplaces() throws {
        let first = try folder.save(try queue(["Album/a.flac"]), as: PlaylistName("one"), now: 100)
        let again = try folder.save(try queue(["Album/a.flac", "Album/b.flac"]), as: PlaylistName("one"), now: 200)
        XCTAssertEqual(again.id, first.id)
        XCTAssertEqual(again.created, 100)
        XCTAssertEqual(again.entryCount, 2)
        let other = try folder.save(try queue(["Album/c.flac"]), as: PlaylistName("two"), now: 300)
        XCTAssertNotEqual(other.id, first.id)

        XCTAssertThrowsError(try folder.rename(PlaylistName("one"), to: PlaylistName("two"))) { error in
            XCTAssertEqual(error as? PlaylistStoreError, .exists("two"))
        }
        let renamed = try folder.rename(PlaylistName("one"), to: PlaylistName("three"))
        XCTAssertEqual(renamed.id, first.id)
        XCTAssertEqual(Set(try folder.list().map(\.name.text)), ["two", "three"])
        try folder.remove(PlaylistName("two"))
        XCTAssertThrowsError(try folder.remove(PlaylistName("two")))
        XCTAssertThrowsError(try folder.read(PlaylistName("two"))) { error in
            XCTAssertEqual(error as? PlaylistStoreError, .notFound("two"))
        }
        XCTAssertEqual(try folder.list().map(\.id), [first.id])
    }

    func testAPlaylistWrittenByHandIsListedWithAnIdFromItsName() throws {
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try "#EXTM3U\n/x.flac\n\n# note\n/y.flac\n".write(toFile: folder.path + "/by hand.m3u8", atomically: false, encoding: .utf8)
        try "x".write(toFile: folder.path + "/.hidden.m3u8", atomically: false, encoding: .utf8)
        try "x".write(toFile: folder.path + "/notes.txt", atomically: false, encoding: .utf8)
        let listed = try folder.list()
        XCTAssertEqual(listed.map(\.name.text), ["by hand"])
        XCTAssertEqual(listed.first?.entryCount, 2)
        XCTAssertEqual(listed.first?.id, try folder.list().first?.id, "the same id every time")
    }

    /// A write that fails half-way (here the file-size limit, as a full disk would) leaves the old playlist whole
    /// and no temporary file behind.
    func testAFailedWriteLeavesTheOldPlaylistWhole() throws {
        let name = try PlaylistName("kept")
        try folder.save(try queue(["Album/a.flac"]), as: name, now: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/kept.m3u8"))
        let bigger = try queue((0..<200).map { "Album/\($0) a long file name to make the playlist larger.flac" })
        var old = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        signal(SIGXFSZ, SIG_IGN)  // the write fails with EFBIG instead of the signal ending the process
        var small = old
        small.rlim_cur = 4096
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small)
        XCTAssertThrowsError(try folder.save(bigger, as: name, now: 2)) { error in
            XCTAssertTrue("\(error)".contains("cannot write"), "\(error)")
        }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &old)
        signal(SIGXFSZ, SIG_DFL)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/kept.m3u8")), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.m3u8"])
    }

    private static func uris(_ tracks: QueueSnapshot) throws -> [String] {
        var uris: [String] = []
        tracks.forEach { uris.append($0.uri) }
        return uris
    }
}
