import Foundation
import Playlists
import XCTest

final class MediaSourcesTests: XCTestCase {
    func testArgumentsExpandInOrder() throws {
        let music = try MusicFolder()
        try music.touch("album/b.flac", "album/a.flac", "any.xyz", "list/x.mp3")
        try music.write("list/p.m3u", text: "x.mp3\nmissing.mp3\n")
        let list = MediaSources.expand(["album", "https://h/s.mp3", "list/p.m3u", "\(music.path)/any.xyz", "nope.ogg",
                                        music.uri("album/b.flac"), "smb://nas/a.flac"],
                                       workingDirectory: music.path)
        XCTAssertEqual(list.uris, [music.uri("album/a.flac"), music.uri("album/b.flac"), "https://h/s.mp3",
                                   music.uri("list/x.mp3"), music.uri("any.xyz"), music.uri("album/b.flac")])
        XCTAssertEqual(list.skipped, [
            SkippedEntry(playlist: music.path + "/list/p.m3u", line: 2, reference: "missing.mp3", reason: .notFound),
            SkippedEntry(playlist: nil, line: nil, reference: "nope.ogg", reason: .notFound),
            SkippedEntry(playlist: nil, line: nil, reference: "smb://nas/a.flac", reason: .unsupportedURI),
        ])
        XCTAssertEqual(list.skipped[1].description, "\"nope.ogg\": no such file or folder")
    }

    func testDotDotAndDoubleSlashesAreNormalizedInURIs() throws {
        let music = try MusicFolder()
        try music.touch("a/b.flac")
        let list = MediaSources.expand(["./a//../a/./b.flac"], workingDirectory: music.path + "/")
        XCTAssertEqual(list.uris, [music.uri("a/b.flac")])
    }

    func testAPathThroughAFileIsNotFound() throws {
        let music = try MusicFolder()
        try music.touch("f.flac")
        XCTAssertEqual(MediaSources.expand(["f.flac/x.flac"], workingDirectory: music.path).skipped.map(\.reason), [.notFound])
    }
}
