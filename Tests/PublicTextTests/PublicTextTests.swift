import PublicText
import XCTest

final class PublicTextTests: XCTestCase {
    func testCredentialsInURLsAreMaskedWhereverTheyAppear() {
        XCTAssertEqual(PublicText.maskingCredentials(in: "http://alice:s3cret@host/song.mp3"), "http://***@host/song.mp3")
        XCTAssertEqual(PublicText.maskingCredentials(in: "HTTPS://alice@host:8443"), "HTTPS://***@host:8443")
        XCTAssertEqual(PublicText.maskingCredentials(in: "song: network: http://a:b@127.0.0.1:9/x.mp3: cannot connect"),
                       "song: network: http://***@127.0.0.1:9/x.mp3: cannot connect")
        XCTAssertEqual(PublicText.maskingCredentials(in: "from http://a:b@one/x to https://c:d@two/y?u=v@w"),
                       "from http://***@one/x to https://***@two/y?u=v@w", "an @ in the query is not userinfo")
        XCTAssertEqual(PublicText.maskingCredentials(in: "'http://u:p%40ss@h'"), "'http://***@h'")
        XCTAssertEqual(PublicText.maskingCredentials(in: "http://u:p@ss@h/"), "http://***@h/", "up to the last @")
    }

    func testTextWithoutCredentialsIsUnchanged() {
        for text in ["", "http://host/a@b.mp3", "file:///music/@me/song.flac", "mailto:a@b", "a@b://", "://x@y",
                     "unix:path=/tmp/dbus-x", "https://example.com/@user/song.mp3", "é http://h/ é"] {
            XCTAssertEqual(PublicText.maskingCredentials(in: text), text)
        }
    }

    func testStringsAreBoundedOnAScalarBoundaryWithoutNUL() {
        XCTAssertEqual(PublicText.bounded("a\0b"), "ab")
        let long = String(repeating: "é", count: 10_000)  // 2 bytes each
        let cut = PublicText.bounded(long)
        XCTAssertLessThanOrEqual(cut.utf8.count, PublicText.maximumUTF8Count)
        XCTAssertGreaterThan(cut.utf8.count, PublicText.maximumUTF8Count - 8)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertTrue(cut.dropLast().allSatisfy { $0 == "é" })
        XCTAssertEqual(PublicText.bounded("short"), "short")
        XCTAssertEqual(PublicText.bounded("abcdef", limit: 5).utf8.count, 5)
        XCTAssertEqual(PublicText.bounded("abcdef", limit: 5), "ab…")
    }

    func testMaskingComesBeforeCutting() {
        let text = "http://alice:" + String(repeating: "s", count: 300) + "@host/x"
        let shown = PublicText.from(text, limit: 30)
        XCTAssertFalse(shown.contains("alice") || shown.contains("sss"), shown)
        XCTAssertEqual(shown, "http://***@host/x")
    }

    func testListsAreBounded() {
        let list = PublicText.list(Array(repeating: "x\0y", count: 10_000))
        XCTAssertEqual(list.count, PublicText.maximumListCount)
        XCTAssertEqual(Set(list), ["xy"])
    }

    func testMarkupIsEscapedOnceAndPlainTextIsLeftAlone() {
        XCTAssertEqual(PublicText.escapingMarkup("Tom & Jerry <a href=\"x\">"), "Tom &amp; Jerry &lt;a href=&quot;x&quot;&gt;")
        XCTAssertEqual(PublicText.escapingMarkup("&amp;"), "&amp;amp;", "an entity in a tag is text, shown as written")
        XCTAssertEqual(PublicText.escapingMarkup("Ça va — ok"), "Ça va — ok")
    }
}
