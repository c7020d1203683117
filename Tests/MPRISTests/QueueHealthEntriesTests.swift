import ControlAPI
import EventLoop
@testable import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// GetQueue's health entries on a fake engine, without a bus.
final class QueueHealthEntriesTests: XCTestCase {
    /// The error of a failed track masks the login of a URI it quotes as it is. The engine masks what it says of
    /// a download too (RemoteDownload's displayURL), so quaverd's PlaybackHealthTests, whose 404 comes through
    /// it, passes with either masking taken out: this is the adapter's own.
    func testAFailedTracksErrorMasksTheLoginItQuotes() throws {
        let uri = "http://quaver:Secret1@127.0.0.1:8080/missing.mp3"
        let engine = FakeEngine()
        engine.media[uri] = FakeEngine.Media(failure: EngineError(.notFound, "\(uri): HTTP 404 Not Found"))
        let player = Player(engine: engine)
        let id = try XCTUnwrap(player.add([uri]).first)
        player.play()
        XCTAssertTrue(EventLoop.main.run(until: {
            if case .failed = player.status(of: id) { return true } else { return false }
        }, timeout: 5), "the track failed")
        let entries = PlaybackHealthMembers.queueEntries(of: try XCTUnwrap(player.track(id)), in: player)
        let error = entries[MetadataKey.error]?.stringValue ?? ""
        XCTAssertTrue(error.contains("127.0.0.1:8080/missing.mp3: HTTP 404 Not Found"), error)
        XCTAssertFalse(error.contains("Secret1"), error)
        XCTAssertEqual(entries[MetadataKey.errorKind]?.stringValue, "not-found")
    }
}
