import EventLoop
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// What the background tag scan reads: queued local files the player knows nothing about, but not the
/// track the engine has loaded (its tags come with the stream).
final class TagScannerTests: XCTestCase {
    func testAnOpenedFileIsLeftToTheEngineAndQueuedOnesAreRead() throws {
        let fixtures = try Fixtures.shared()
        let player = Player(engine: FakeEngine())
        let reader = TagReader(idleLifetime: 0.1)
        let scanner = TagScanner(player: player, reader: reader)
        player.open(fixtures.flac.absoluteString)
        EventLoop.main.run(until: { false }, timeout: 0.2)  // the scan feeds the reader on later turns
        XCTAssertEqual(reader.pendingCount, 0, "the playing track is not read again")
        XCTAssertFalse(reader.isDiscovererRunning)
        let queued = player.add([fixtures.vorbis.absoluteString])
        XCTAssertTrue(EventLoop.main.run(until: { reader.isDiscovererRunning }, timeout: 2), "a queued file is read")
        XCTAssertTrue(EventLoop.main.run(until: { player.track(queued[0])?.tags.title != nil }, timeout: 10))
        XCTAssertTrue(EventLoop.main.run(until: { !reader.isDiscovererRunning }, timeout: 5))
        withExtendedLifetime(scanner) {}
    }
}
