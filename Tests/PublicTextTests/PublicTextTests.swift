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

    /// The issue's bypasses: libcurl reads the user-info up to the last `@` before the first `/`, `?` or `#`,
    /// whatever quotes or spaces come before it; masking must cover at least as much.
    func testPasswordsWithQuotesSpacesAndDelimitersAreMasked() {
        for password in ["a'b", "a\"b", "a<b", "a>b", "a`b", "a b", "a#b", "a?b", "a\\b", "a@b"] {
            let url = "http://alice:\(password)@host/song.mp3"
            XCTAssertEqual(PublicText.url(url), "http://***@host/song.mp3", url)
            XCTAssertEqual(PublicText.maskingCredentials(in: "cannot open '\(url)': refused"),
                           "cannot open 'http://***@host/song.mp3': refused", url)
        }
        XCTAssertEqual(PublicText.maskingCredentials(in: "http://host?from=a@b"), "http://***@b",
                       "an @ before the first / is taken as a login's end, even after a ?")
    }

    func testSecretQueryValuesAreMaskedWithoutCase() {
        XCTAssertEqual(PublicText.url("https://s3.example/a.mp3?X-Amz-Credential=AK%2F1&X-Amz-Signature=f00d&x=1"),
                       "https://s3.example/a.mp3?X-Amz-Credential=***&X-Amz-Signature=***&x=1")
        XCTAssertEqual(PublicText.url("http://radio/live?TOKEN=t1;sig=s2&Key=k#auth=frag"),
                       "http://radio/live?TOKEN=***;sig=***&Key=***#auth=frag", "a fragment is not sent")
        XCTAssertEqual(PublicText.url("http://h/a?%74oken=t&password=p w'x"), "http://h/a?%74oken=***&password=***",
                       "names are compared percent-decoded; a URL alone ends only with the text")
        XCTAssertEqual(PublicText.maskingCredentials(in: "GET http://h/a?auth=abc failed: 403"),
                       "GET http://h/a?auth=*** failed: 403", "in free text a value ends at white space")
        XCTAssertEqual(PublicText.url("http://h/?next=http://u:p@g/x&token="), "http://h/?next=http://***@g/x&token=",
                       "a URL quoted in a query is masked too; an empty value stays empty")
        XCTAssertEqual(PublicText.url("http://h/a.mp3?title=key&keys=1"), "http://h/a.mp3?title=key&keys=1")
    }

    /// A URI of 64 KiB (the most a client may queue) made of nested URLs is masked in linear time: each
    /// publication of its metadata masks it.
    func testNestedURLsCostLinearTime() {
        let uri = "http://h/?a=" + String(repeating: "x://y?b=", count: 8_000) + "&token=t"
        let start = ContinuousClock.now
        XCTAssertTrue(PublicText.url(uri, limit: .max).hasSuffix("&token=***"))
        XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(500))
    }

    func testAKnownURLIsMaskedWholeInAMessage() {
        let url = "http://h/a?password=p w'x&n=1"
        XCTAssertEqual(PublicText.from("song: network: cannot open \(url): bad URL", quoting: [url]),
                       "song: network: cannot open http://h/a?password=***&n=1: bad URL")
    }

    func testTheLoginIsSplitOffWhereLibcurlReadsIt() {
        let login = URLLogin("http://al%40ice:p'a\"s s%3A@host:8080/a%20b.mp3?token=x")
        XCTAssertEqual(login, URLLogin(address: "http://host:8080/a%20b.mp3?token=x", user: "al@ice", password: "p'a\"s s:"))
        XCTAssertEqual(URLLogin("https://alice@h/"), URLLogin(address: "https://h/", user: "alice", password: nil))
        XCTAssertEqual(URLLogin("http://host?from=a@b").user, nil, "libcurl ends the user-info at ?")
        XCTAssertEqual(URLLogin("file:///m/@me.flac").user, nil)
        XCTAssertEqual(URLLogin("not a url").address, "not a url")
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
