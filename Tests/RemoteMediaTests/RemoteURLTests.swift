import RemoteMedia
import XCTest

final class RemoteURLTests: XCTestCase {
    func testCredentialsAreStrippedAndTheRestKept() {
        XCTAssertEqual(RemoteURL.withoutCredentials("http://alice:s3cret@host:8080/a%20b.mp3?x=1#f"),
                       "http://host:8080/a%20b.mp3?x=1#f")
        XCTAssertEqual(RemoteURL.redacted("https://alice@host/song.mp3"), "https://host/song.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("http://host/song.mp3"), "http://host/song.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("not a url"), "not a url")
    }
}
