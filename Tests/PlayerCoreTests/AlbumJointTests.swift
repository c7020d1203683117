import XCTest
import PlayerCore
import TestSupport

/// A crossfade keeps the joints within an album gapless: engine items say whether the track before them in play
/// order is from the same album (`EngineItem.continuesAlbum`), by the rule ReplayGain "auto" uses.
final class AlbumJointTests: PlayerTestCase {
    private func tags(album: String?) -> TrackTags {
        var tags = TrackTags()
        tags.album = album
        return tags
    }

    private func item(_ id: TrackID, continuesAlbum: Bool) -> EngineItem {
        EngineItem(id: id, uri: player.track(id)!.uri, continuesAlbum: continuesAlbum)
    }

    private func play(_ albums: [String?]) -> [TrackID] {
        let ids = queue(albums.count)
        for (id, album) in zip(ids, albums) { player.updateTags(id, tags(album: album)) }
        player.play()
        settle()
        return ids
    }

    func testOnlyAJointWithinAnAlbumContinuesIt() {
        player.marksAlbumJoints = true
        let ids = play(["A", "A", "B", nil])
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
        let ids = play(["A", "A"])
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: false))
        player.marksAlbumJoints = true
        XCTAssertEqual(engine.prepared, item(ids[1], continuesAlbum: true), "told again once marked")
    }
}
