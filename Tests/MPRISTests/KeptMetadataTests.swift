import ControlAPI
import DBus
@testable import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// The current track's Metadata is answered from the map kept for it, so a change of its tags must reach that map.
final class KeptMetadataTests: XCTestCase {
    func testTheCurrentTracksMetadataFollowsItsTags() throws {
        let bus = try PrivateBus()
        let connection = try Connection(address: bus.address)
        let art = try TemporaryDirectory(prefix: "quaver-art")
        let player = Player(engine: FakeEngine())
        let service = MPRISService(player: player, connection: connection, configuration: .init(
            supportedMimeTypes: { [] }, artwork: ArtworkCache(directory: art.url), quit: {}))
        let id = try XCTUnwrap(player.add(["file:///music/01%20Intro.flac", "file:///music/02%20Outro.flac"]).first)
        let metadata = try XCTUnwrap(service.interfaces.first { $0.name == ControlAPI.playerInterface }?
            .properties.first { $0.name == PlayerProperty.metadata })
        func title() throws -> String? { try metadata.value().dictionaryValue?[MetadataKey.title]?.stringValue }

        XCTAssertEqual(player.currentTrackID, id)
        XCTAssertEqual(try title(), "01 Intro")
        XCTAssertEqual(try title(), "01 Intro", "answered again from the kept map")
        var tags = TrackTags()
        tags.title = "Overture"
        player.updateTags(id, tags)
        XCTAssertEqual(try title(), "Overture")
        XCTAssertEqual(service.metadata(of: id).dictionaryValue?[MetadataKey.title]?.stringValue, "Overture")
    }
}
