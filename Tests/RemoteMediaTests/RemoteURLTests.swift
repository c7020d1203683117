import RemoteMedia
import XCTest

final class RemoteURLTests: XCTestCase {
    func testCredentialsAreStrippedAndTheRestKept() {
        XCTAssertEqual(RemoteURL.withoutCredentials("http://alice:s3cret@host:8080/a%20b.mp3?x=1#f"),
                       "http://host:8080/a%20b.mp3?x=1#f")
        XCTAssertEqual(RemoteURL.withoutCredentials("https://alice@host/song.mp3"), "https://host/song.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("http://host/song.mp3"), "http://host/song.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("not a url"), "not a url")
    }

    func testAPasswordWithAnAtSignOrAnUnparseableURLLosesItsCredentialsToo() {
        XCTAssertEqual(RemoteURL.withoutCredentials("http://alice:p@ss@host/a b.mp3"), "http://host/a b.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("https://u:p@[::1]:8443/x"), "https://[::1]:8443/x")
    }

    func testAnAtSignAfterTheHostIsNotUserinfo() {
        XCTAssertEqual(RemoteURL.withoutCredentials("http://host/users/@me/song.mp3"), "http://host/users/@me/song.mp3")
        XCTAssertEqual(RemoteURL.withoutCredentials("http://host?from=a@b"), "http://host?from=a@b")
    }
}
