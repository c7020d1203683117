import XCTest
import PlayerCore
import TestSupport

/// ReplayGain "auto" needs to know, per engine item, whether the track before or after it in play order
/// is from the same album; the core works it out from the tags and tells the engine when it changes.
final class AlbumNeighbourTests: PlayerTestCase {
    override func setUp() {
        super.setUp()
        player.marksAlbumNeighbours = true
    }

    private func item(_ id: TrackID, sharesAlbum: Bool) -> EngineItem {
        EngineItem(id: id, uri: player.track(id)!.uri, sharesAlbumWithNeighbour: sharesAlbum)
    }

    func testATrackBetweenTracksOfItsAlbumSharesItAndALoneTrackDoesNot() {
        let ids = play([tags(album: "A"), tags(album: "A"), tags(album: "B"), tags(album: nil)])
        XCTAssertEqual(engine.current, item(ids[0], sharesAlbum: true), "followed by its album")
        XCTAssertEqual(engine.prepared, item(ids[1], sharesAlbum: true), "preceded by its album")
        player.next()
        settle()
        XCTAssertEqual(engine.prepared, item(ids[2], sharesAlbum: false), "between A and an untagged track")
        player.next()
        settle()
        XCTAssertEqual(engine.current, item(ids[2], sharesAlbum: false))
        XCTAssertEqual(engine.prepared, item(ids[3], sharesAlbum: false), "no album tag: never an album")
    }

    func testArtistsTellAlbumsOfTheSameNameApart() {
        let ids = play([tags(album: "Greatest Hits", artist: "X"), tags(album: "Greatest Hits", artist: "Y"),
                        tags(album: "Mix", artist: "P", albumArtist: "Various"),
                        tags(album: "Mix", artist: "Q", albumArtist: "Various")])
        XCTAssertEqual(engine.current, item(ids[0], sharesAlbum: false), "same title, other artist")
        player.goTo(ids[2])
        settle()
        XCTAssertEqual(engine.current, item(ids[2], sharesAlbum: true), "a compilation: album artists agree")
        XCTAssertEqual(engine.prepared, item(ids[3], sharesAlbum: true))
    }

    func testTheLoadedItemIsUpdatedWhenItsNeighboursTagsArrive() {
        let ids = queue(3)
        player.updateTags(ids[0], tags(album: "A"))
        player.play()
        settle()
        XCTAssertEqual(engine.current, item(ids[0], sharesAlbum: false), "the next track's tags are unknown yet")
        engine.clearCommands()
        player.updateTags(ids[1], tags(album: "A"))
        XCTAssertEqual(engine.commands, [.update(item(ids[0], sharesAlbum: true)),
                                         .prepareNext(item(ids[1], sharesAlbum: true))])
        engine.clearCommands()
        player.updateTags(ids[1], tags(album: "A"))
        XCTAssertEqual(engine.commands, [], "nothing changed, nothing sent")
        player.remove(ids[1])
        XCTAssertEqual(engine.commands.first, .update(item(ids[0], sharesAlbum: false)), "its album neighbour left")
    }

    func testAGaplessSwitchKeepsWhatTheEngineWasToldOfThePreparedItem() {
        let ids = play([tags(album: "A"), tags(album: "A"), tags(album: "B")])
        engine.clearCommands()
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertFalse(engine.commands.contains { if case .update = $0 { return true } else { return false } },
                       "the engine already knows: \(engine.commands)")
        XCTAssertEqual(engine.prepared, item(ids[2], sharesAlbum: false))
    }

    func testWithoutMarkingNoItemSharesAnAlbum() {
        player.marksAlbumNeighbours = false
        let ids = play([tags(album: "A"), tags(album: "A")])
        XCTAssertEqual(engine.current, item(ids[0], sharesAlbum: false))
        XCTAssertEqual(engine.prepared, item(ids[1], sharesAlbum: false))
    }
}
