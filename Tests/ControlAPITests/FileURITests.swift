import ControlAPI
import XCTest

final class FileURITests: XCTestCase {
    func testEncodesEverythingThatIsNotAPathCharacter() {
        XCTAssertEqual(FileURI.encode(path: "/music/A b/#1 what?/100%/é.flac"),
                       "file:///music/A%20b/%231%20what%3F/100%25/%C3%A9.flac")
        XCTAssertEqual(FileURI.encode(path: "/a/(live) & more;=@:+,!$'*~_-.ogg"),
                       "file:///a/(live)%20&%20more;=@:+,!$'*~_-.ogg")
    }

    func testDecodesWhatItEncodes() {
        let path = "/music/A b/#1 what?/100%/日本語 é.flac"
        XCTAssertEqual(FileURI.pathBytes(fromURI: FileURI.encode(path: path)), Array(path.utf8))
    }

    func testBytesThatAreNotUTF8RoundTrip() {
        let bytes: [UInt8] = Array("/m/".utf8) + [0xE9, 0xFF] + Array(".mp3".utf8)  // Latin-1 "é", then junk
        let uri = FileURI.encode(pathBytes: bytes)
        XCTAssertEqual(uri, "file:///m/%E9%FF.mp3")
        XCTAssertEqual(FileURI.pathBytes(fromURI: uri), bytes)
    }

    func testAcceptsLocalhostAndSingleSlashFormsOnly() {
        XCTAssertEqual(FileURI.pathBytes(fromURI: "file://localhost/a%20b"), Array("/a b".utf8))
        XCTAssertEqual(FileURI.pathBytes(fromURI: "FILE:/a"), Array("/a".utf8))
        XCTAssertNil(FileURI.pathBytes(fromURI: "file://server/share/a.flac"))
        XCTAssertNil(FileURI.pathBytes(fromURI: "file:///bad%2"))
        XCTAssertNil(FileURI.pathBytes(fromURI: "file:///bad%zz"))
        XCTAssertNil(FileURI.pathBytes(fromURI: "http://example.com/a"))
    }
}
