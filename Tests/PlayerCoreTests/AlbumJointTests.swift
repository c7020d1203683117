import XCTest
import PlayerCore
import TestSupport

/// A crossfade keeps the joints within an album gapless: engine items say whether the track before them in play
/// order is from the same album (`EngineItem.continuesAlbum`), by the rule ReplayGain "auto" uses.
final class AlbumJointTests: PlayerTestCase {
    private func item(_ id: TrackID, continuesAlbum: Bool) -> EngineItem {
        EngineItem(id: id, uri: player.track(id)!.uri, continuesAlbum: continuesAlbum)
    }

    /// Queues tracks of these albums and plays the first until it is heard.
    private func play(albums: [String?]) -> [TrackID] {
        play(albums.map { tags(album: $0) })
    }

    func testOnlyAJointWithinAnAlbumContinuesIt() {
        player.marksAlbumJoints = true
        let ids = play(albums: ["A", "A", "B", nil])
        XCTAssertEqual(engine.current, item(ids[0], continuesAlbum: false), "nothing before it")
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: true), "A after A")
        player.next()
        settle()
        XCTAssertEqual(engine.prepared, item(ids[2], continuesAlbum: false), "B after A")
        player.next()
        settle()
        XCTAssertEqual(engine.prepared, item(ids[3], continuesAlbum: false), "no album tag: never an album")
    }

    func testThePreparedItemIsSentAgainWhenTheTagsThatDecideArrive() {
        player.marksAlbumJoints = true
        let ids = queue(2)
        player.updateTags(ids[0], tags(album: "A"))
        player.play()
        settle()
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: false), "its tags are unknown yet")
        engine.clearCommands()
        player.updateTags(ids[1], tags(album: "A"))
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[1], continuesAlbum: true))])
    }

    func testUnmarkedItemsNeverContinueAnAlbum() {
        let ids = play(albums: ["A", "A"])
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: false))
        player.marksAlbumJoints = true
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: true), "told again once marked")
    }
}
