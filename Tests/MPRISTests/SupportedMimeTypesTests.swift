import ControlAPI
import DBus
import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// SupportedMimeTypes walks the GStreamer registry: that happens when a client first reads the property,
/// once, and never on the way to the daemon's first answer.
final class SupportedMimeTypesTests: XCTestCase {
    func testTheTypesAreAskedForOnTheFirstReadOnly() throws {
        let bus = try PrivateBus()
        let connection = try Connection(address: bus.address)
        let art = try TemporaryDirectory(prefix: "quaver-art")
        var asked = 0
        let service = MPRISService(player: Player(engine: FakeEngine()), connection: connection, configuration: .init(
            supportedMimeTypes: { asked += 1; return ["audio/flac", "audio/mpeg"] }, artwork: ArtworkCache(directory: art.url),
            quit: {}))
        connection.export(service.exportedObject())
        XCTAssertEqual(asked, 0, "not asked for at start-up")
        let root = try XCTUnwrap(service.interfaces.first { $0.name == ControlAPI.rootInterface })
        let property = try XCTUnwrap(root.properties.first { $0.name == "SupportedMimeTypes" })
        for _ in 0..<2 { XCTAssertEqual(try property.value().stringArrayValue, ["audio/flac", "audio/mpeg"]) }
        XCTAssertEqual(asked, 1, "asked for once")
    }
}
