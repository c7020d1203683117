import Foundation
import Playlists
import XCTest

final class PLSTests: XCTestCase {
    func testEntriesInNumberOrderWithTitlesLengthsAndAnyKeyCase() throws {
        let music = try MusicFolder()
        try music.touch("a.flac", "sub/b.ogg")
        let text = """
            [playlist]
            NumberOfEntries=2
            File2 = sub/b.ogg
            Title2=Second
            file1=\(music.path)/a.flac
            TITLE1=First
            Length1=180
            LENGTH2=-1
            FILE3=http://radio.example/live
            ; comment
            File10=\(music.uri("a.flac"))
            Version=2
            """
        let playlist = try music.write("list.PLS", text: text.replacingOccurrences(of: "\n", with: "\r\n"))
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.skipped, [])
        XCTAssertEqual(list.entries, [
            MediaEntry(uri: music.uri("a.flac"), title: "First", lengthSeconds: 180),
            MediaEntry(uri: music.uri("sub/b.ogg"), title: "Second", lengthSeconds: nil),
            MediaEntry(uri: "http://radio.example/live"),
            MediaEntry(uri: music.uri("a.flac")),
        ], "NumberOfEntries=2 is not trusted: every FileN counts, sorted by N (10 after 3)")
    }

    func testMissingFileReportedWithItsLineAndTitleWithoutFileIgnored() throws {
        let music = try MusicFolder()
        try music.touch("here.mp3")
        let playlist = try music.write("l.pls", text: "\u{FEFF}[playlist]\nFile1=lost.mp3\nTitle7=orphan\nFile2=here.mp3\n")
        let list = try PlaylistFile.read(path: playlist)
        XCTAssertEqual(list.uris, [music.uri("here.mp3")])
        XCTAssertEqual(list.skipped, [SkippedEntry(playlist: playlist, line: 2, reference: "lost.mp3", reason: .notFound)])
    }

    func testFormatByExtension() {
        XCTAssertEqual(PlaylistFormat(path: "/a/b.M3U8"), .m3u)
        XCTAssertEqual(PlaylistFormat(path: "/a/b.m3u"), .m3u)
        XCTAssertEqual(PlaylistFormat(path: "/a/b.pls"), .pls)
        XCTAssertNil(PlaylistFormat(path: "/a.pls/b.flac"))
        XCTAssertNil(PlaylistFormat(path: "/a/m3u"))
    }
}
