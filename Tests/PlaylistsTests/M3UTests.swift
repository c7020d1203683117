import Foundation
import Playlists
import XCTest

final class M3UTests: XCTestCase {
    func testRelativeAbsoluteURIAndURLEntriesWithCommentsBOMAndCRLF() throws {
        let music = try MusicFolder()
        try music.touch("lists/near.flac", "album/01 first.mp3", "album/odd #1?.ogg", "abs/é 100%.opus")
        let text = "\u{FEFF}#EXTM3U\r\n"
            + "# a comment\r\n"
            + "#EXTINF:213,Artist - Near\r\n"
            + "near.flac\r\n"
            + "\r\n"
            + "../album/01 first.mp3\r\n"
            + "  ../album/./odd #1?.ogg  \r\n"
            + "\(music.path)/abs/é 100%.opus\r\n"
            + "#EXTINF:-1,Radio\r\n"
            + "https://radio.example/stream?x=1\r\n"
            + "\(music.uri("album/01 first.mp3"))\r\n"
        let playlist = try music.write("lists/mix.m3u8", text: text)
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.skipped, [])
        XCTAssertEqual(list.uris, [music.uri("lists/near.flac"), music.uri("album/01 first.mp3"),
                                   music.uri("album/odd #1?.ogg"), music.uri("abs/é 100%.opus"),
                                   "https://radio.example/stream?x=1", music.uri("album/01 first.mp3")])
        XCTAssertEqual(list.entries[0], MediaEntry(uri: music.uri("lists/near.flac"), title: "Artist - Near", lengthSeconds: 213))
        XCTAssertEqual(list.entries[4].title, "Radio")
        XCTAssertNil(list.entries[4].lengthSeconds, "-1 means unknown length")
        XCTAssertNil(list.entries[1].title, "#EXTINF applies to the next entry only")
        XCTAssertTrue(list.uris[2].hasSuffix("/album/odd%20%231%3F.ogg"))
    }

    func testMissingEntriesAreReportedWithTheirLineAndSkipped() throws {
        let music = try MusicFolder()
        try music.touch("there.flac")
        let playlist = try music.write("list.m3u", text: "gone.flac\nthere.flac\n#EXTINF:5,Ghost\n/nowhere/x.mp3\nftp://host/a.mp3\n")
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.uris, [music.uri("there.flac")])
        XCTAssertEqual(list.skipped, [
            SkippedEntry(playlist: playlist, line: 1, reference: "gone.flac", reason: .notFound),
            SkippedEntry(playlist: playlist, line: 4, reference: "/nowhere/x.mp3", reason: .notFound),
            SkippedEntry(playlist: playlist, line: 5, reference: "ftp://host/a.mp3", reason: .unsupportedURI),
        ])
        XCTAssertEqual(list.skipped[0].description, "\(playlist):1: \"gone.flac\": no such file or folder")
    }

    func testOldCRLineEndsLatin1AndWindowsSeparators() throws {
        let music = try MusicFolder()
        try music.touch("Café/a.mp3", "Café/b.mp3")
        var data = Data("#EXTINF:3,Caf".utf8) + Data([0xE9]) + Data("\rCaf".utf8) + Data([0xE9])  // Latin-1 é
        data += Data("\\a.mp3\rCaf".utf8) + Data([0xE9]) + Data("/b.mp3\r".utf8)
        let playlist = try music.write("old.m3u", data)
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.skipped, [])
        XCTAssertEqual(list.uris, [music.uri("Café/a.mp3"), music.uri("Café/b.mp3")])
        XCTAssertEqual(list.entries[0].title, "Café")
    }

    func testAFolderEntryGivesItsAudioFilesAndANestedPlaylistItsEntries() throws {
        let music = try MusicFolder()
        try music.touch("album/2.flac", "album/10.flac", "album/cover.jpg", "single.mp3")
        try music.write("inner.m3u", text: "single.mp3\n")
        try music.write("self.m3u", text: "self.m3u\n")
        let playlist = try music.write("outer.m3u", text: "album\ninner.m3u\n")
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.uris, [music.uri("album/2.flac"), music.uri("album/10.flac"), music.uri("single.mp3")])
        let loop = try PlaylistFile.read(path: music.path + "/self.m3u")
        XCTAssertEqual(loop.entries, [])
        XCTAssertEqual(loop.skipped.count, 1)
        XCTAssertEqual(loop.skipped[0].reason, .refused("a playlist that includes itself (left out there)"))
    }

    func testExtinfWithQuotedAttributes() throws {
        let music = try MusicFolder()
        let list = PlaylistFile.parse(text: "#EXTINF:-1 tvg-name=\"a, b\" group=\"x\",Channel, One\nhttp://tv/1\n",
                                      format: .m3u, playlistPath: music.path + "/tv.m3u")
        XCTAssertEqual(list.entries, [MediaEntry(uri: "http://tv/1", title: "Channel, One")])
    }

    func testUnreadablePlaylistThrowsWithThePath() {
        XCTAssertThrowsError(try PlaylistFile.read(path: "/nonexistent/list.m3u")) { error in
            XCTAssertEqual("\(error)", "cannot read playlist /nonexistent/list.m3u: No such file or directory")
        }
    }
}
