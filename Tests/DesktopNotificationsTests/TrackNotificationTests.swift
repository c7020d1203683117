@testable import DesktopNotifications
import PlayerCore
import XCTest

/// What a notification shows, from tags anyone can write.
final class TrackNotificationTests: XCTestCase {
    private func track(title: String? = "Song", artists: [String] = [], albumArtists: [String] = [],
                       album: String? = nil, uri: String = "file:///m/01%20Intro.flac") -> Track {
        var tags = TrackTags()
        tags.title = title
        tags.artists = artists
        tags.albumArtists = albumArtists
        tags.album = album
        return Track(id: TrackID(1), uri: uri, tags: tags)
    }

    func testTitleArtistAndAlbum() {
        let shown = TrackNotification(track: track(artists: ["A", "B"], album: "Album"), artURL: "file:///c/x.png")
        XCTAssertEqual(shown.summary, "Song")
        XCTAssertEqual(shown.body, "A, B — Album")
        XCTAssertEqual(shown.imageURL, "file:///c/x.png")
    }

    func testMissingPartsLeaveNoDanglingSeparator() {
        XCTAssertEqual(TrackNotification(track: track(artists: ["A"]), artURL: nil).body, "A")
        XCTAssertEqual(TrackNotification(track: track(album: "Album"), artURL: nil).body, "Album")
        XCTAssertEqual(TrackNotification(track: track(albumArtists: ["Band"]), artURL: nil).body, "Band",
                       "the album artist when no artist is tagged")
        let untagged = TrackNotification(track: track(title: nil), artURL: nil)
        XCTAssertEqual(untagged.summary, "01 Intro", "the file name, as MPRIS shows it")
        XCTAssertEqual(untagged.body, "")
    }

    func testTheBodysMarkupIsEscapedForAServerTakingMarkupAndTheSummaryIsPlainText() {
        let hostile = track(title: "<b>Loud</b> & clear", artists: ["Tom & Jerry <img src=\"x\">"], album: "&amp; <i>")
        let shown = TrackNotification(track: hostile, artURL: nil)
        XCTAssertEqual(shown.body(takingMarkup: true), "Tom &amp; Jerry &lt;img src=&quot;x&quot;&gt; — &amp;amp; &lt;i&gt;")
        XCTAssertEqual(shown.body(takingMarkup: false), "Tom & Jerry <img src=\"x\"> — &amp; <i>",
                       "a server without body-markup shows text as it is")
        XCTAssertEqual(shown.summary, "<b>Loud</b> & clear", "the spec's summary is plain text: servers escape it")
    }

    func testNULAndHugeTagsAreBounded() {
        let shown = TrackNotification(track: track(title: "a\u{0}b", artists: [String(repeating: "x", count: 100_000)]),
                                      artURL: nil)
        XCTAssertEqual(shown.summary, "ab")
        XCTAssertLessThanOrEqual(shown.body.utf8.count, 4096)
    }
}
