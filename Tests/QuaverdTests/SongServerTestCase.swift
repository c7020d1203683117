import TestSupport
import XCTest

/// Tests of the real daemon against nginx serving the fixtures' tagged MP3 as `song.mp3` (`server`), on a folder
/// of its own (`files`), made for each test and stopped after it.
class SongServerTestCase: XCTestCase {
    var files: TemporaryDirectory!
    var server: NginxServer!

    override func setUpWithError() throws {
        (files, server) = try NginxServer.servingTheSong()
    }

    override func tearDown() {
        server = nil
        files = nil
    }
}
