import Foundation
import XCTest
import PlayerCore
import TestSupport

final class QueueTests: PlayerTestCase {
    func testAddAfterTrackInsertsThereAndUpdatesPreparedItem() {
        let ids = startPlaying(3)
        let added = player.insert([uri(10), uri(11)], after: ids[0])
        XCTAssertEqual(player.tracks.map(\.id), [ids[0]] + added + [ids[1], ids[2]])
        XCTAssertEqual(recorder.drain(), [.tracksAdded(added, after: ids[0])])
        XCTAssertEqual(engine.commands, [.prepareNext(item(added[0]))])
    }

    func testAddAtStartAndEnd() {
        let ids = queue(2)
        _ = recorder.drain()
        let first = player.add([uri(9)], at: .start)
        let last = player.add([uri(8)])
        XCTAssertEqual(player.tracks.map(\.id), first + ids + last)
        XCTAssertEqual(recorder.drain(), [.tracksAdded(first, after: nil),
                                          .capabilities(capabilities(next: true, previous: true, seek: false)),
                                          .tracksAdded(last, after: ids[1])])
        XCTAssertEqual(player.currentTrackID, ids[0])
    }

    func testAddAfterUnknownTrackOrNothingDoesNothing() {
        queue(1)
        _ = recorder.drain()
        XCTAssertEqual(player.insert([uri(2)], after: TrackID(999)), [])
        XCTAssertEqual(player.add([String]()), [])
        XCTAssertEqual(recorder.drain(), [])
    }

    func testIdsAreNeverReused() {
        let first = queue(2)
        player.clear()
        let second = queue(2)
        XCTAssertTrue(Set(first).isDisjoint(with: second))
    }

    func testRemovingCurrentWhilePlayingPlaysTheNext() {
        let ids = startPlaying(3)
        player.remove(ids[0])
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(engine.commands, [.load(item(ids[1]), at: .zero, playing: true), .prepareNext(item(ids[2]))])
        XCTAssertEqual(recorder.drain(), [.trackRemoved(ids[0]), .currentTrack(ids[1]), .state(.loading),
                                          .capabilities(capabilities(next: true, previous: false, seek: false))])
    }

    func testRemovingLastCurrentTrackStopsAtFirst() {
        let ids = startPlaying(2)
        player.next()
        settle()
        player.remove(ids[1])
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(player.status, .stopped)
        player.remove(ids[0])
        XCTAssertNil(player.currentTrackID)
        XCTAssertEqual(player.capabilities, PlayerCapabilities())
    }

    func testRemovingCurrentWhileStoppedOnlyMovesCurrent() {
        let ids = queue(3)
        player.remove(ids[0])
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [])
    }

    func testRemovingTheNextTrackPreparesTheOneAfter() {
        let ids = startPlaying(3)
        player.remove(ids[1])
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[2]))])
        XCTAssertEqual(recorder.drain(), [.trackRemoved(ids[1])])
    }

    func testMoveReordersAndUpdatesPreparedItem() {
        let ids = startPlaying(3)
        player.move(ids[2], to: .after(ids[0]))
        XCTAssertEqual(player.tracks.map(\.id), [ids[0], ids[2], ids[1]])
        XCTAssertEqual(recorder.drain(), [.trackMoved(ids[2], after: ids[0])])
        XCTAssertEqual(engine.commands, [.prepareNext(item(ids[2]))])
        player.move(ids[0], to: .end)
        XCTAssertEqual(recorder.drain(), [.trackMoved(ids[0], after: ids[1]),
                                          .capabilities(capabilities(next: false, previous: true, seek: true))])
        XCTAssertEqual(engine.commands.last, .prepareNext(nil))
        player.move(ids[0], to: .end)  // no change
        player.move(ids[0], to: .after(ids[0]))
        XCTAssertEqual(recorder.drain(), [])
    }

    func testClearStopsAndEmptiesQueue() {
        startPlaying(3)
        player.clear()
        XCTAssertEqual(player.tracks, [])
        XCTAssertEqual(engine.commands, [.stop])
        XCTAssertEqual(recorder.drain(), [.queueReplaced, .currentTrack(nil), .status(.stopped), .state(.stopped),
                                          .capabilities(PlayerCapabilities())])
        player.clear()
        XCTAssertEqual(recorder.drain(), [])
    }

    func testReplaceWhilePlayingPlaysNewQueueFromChosenTrack() {
        startPlaying(3)
        let ids = player.replace(with: [uri(7), uri(8), uri(9)], startingAt: 1)
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertEqual(engine.commands, [.stop, .load(item(ids[1]), at: .zero, playing: true),
                                         .prepareNext(item(ids[2]))])
        XCTAssertEqual(recorder.drain().first, .queueReplaced)
    }

    func testUpdateTagsMergesAndAnnouncesOnlyRealChanges() {
        let ids = queue(1)
        _ = recorder.drain()
        var tags = TrackTags()
        tags.title = "Intro"
        tags.artists = ["A"]
        player.updateTags(ids[0], tags)
        player.updateTags(ids[0], tags)
        var album = TrackTags()
        album.album = "Album"
        player.updateTags(ids[0], album)
        XCTAssertEqual(player.track(ids[0])?.tags.title, "Intro")
        XCTAssertEqual(player.track(ids[0])?.tags.album, "Album")
        XCTAssertEqual(recorder.drain(), [.metadata(ids[0]), .metadata(ids[0])])
    }

    func testUpdateTagsFillsAnUnknownDurationButKeepsTheEngines() {
        engine.media[uri(1)] = FakeEngine.Media(duration: .seconds(42))
        let ids = queue(2)
        _ = recorder.drain()
        player.updateTags(ids[1], TrackTags(), duration: .seconds(7))
        XCTAssertEqual(player.track(ids[1])?.duration, .seconds(7), "read before it plays")
        XCTAssertEqual(recorder.drain(), [.metadata(ids[1])])
        player.play()
        settle()
        player.updateTags(ids[0], TrackTags(), duration: .seconds(40))
        XCTAssertEqual(player.track(ids[0])?.duration, .seconds(42), "the engine's length of the track heard stays")
    }

    func testFallbackTitleIsDecodedFileNameWithoutExtension() {
        XCTAssertEqual(Track.fallbackTitle(for: "file:///m/01%20Intro%20%C3%A9.flac"), "01 Intro é")
        XCTAssertEqual(Track.fallbackTitle(for: "http://host/radio/stream?x=1.2"), "stream")
        XCTAssertEqual(Track.fallbackTitle(for: "file:///m/.hidden"), ".hidden")
        XCTAssertEqual(Track.fallbackTitle(for: "http://alice:s3cret@radio.example/"), "radio.example",
                       "a URL without a path is named by its host, never by its userinfo")
        XCTAssertEqual(Track.fallbackTitle(for: "https://alice:s3cret@radio.example"), "radio.example")
        XCTAssertEqual(Track.fallbackTitle(for: "https://alice:s3cret@host/a/song.mp3?token=x"), "song")
        XCTAssertEqual(Track.fallbackTitle(for: "http://alice:a#b@radio.example"), "radio.example",
                       "a raw # in a password does not end the login (the title was `alice:a`)")
        // Decoded as Foundation's removingPercentEncoding decodes; a name it cannot decode is shown as it is.
        for name in ["01%20Intro", "%C3%A9t%C3%A9", "a%2Fb%2fc", "100%", "%", "%2", "%zz", "%4g", "%E2%82", "%FF",
                     "%C0%AF", "%ED%A0%80", "%F0%9F%8E%B5", "%00x", "%%41", "plain", "%41%42"] {
            let expected = name.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? name
            XCTAssertEqual(Track.fallbackTitle(for: "file:///m/\(name).flac"), expected, name)
        }
        let ids = queue(1)
        XCTAssertEqual(player.track(ids[0])?.title, "1")
        var tags = TrackTags()
        tags.title = "Tagged"
        player.updateTags(ids[0], tags)
        XCTAssertEqual(player.track(ids[0])?.title, "Tagged")
    }

    func testEngineTagsReachTrackAndObservers() {
        var tags = TrackTags()
        tags.title = "From stream"
        engine.media[uri(1)] = FakeEngine.Media(duration: .seconds(42), tags: tags)
        let ids = queue(1)
        player.play()
        settle()
        XCTAssertEqual(player.currentTrack?.title, "From stream")
        XCTAssertEqual(player.currentTrack?.duration, .seconds(42))
        XCTAssertEqual(player.currentTrack?.isSeekable, true)
        XCTAssertEqual(recorder.drain().filter { $0 == .metadata(ids[0]) }.count, 3)
    }
}

/// Lookups by id go through an index kept beside the queue: after any mix of edits it must agree with
/// the queue order itself.
final class QueueIndexTests: PlayerTestCase {
    func testLookupByIDAgreesWithQueueOrderAfterRandomEdits() {
        var random = SeededGenerator(state: 7)
        player.add((0..<40).map { "file:///music/\($0).flac" })
        var gone: [TrackID] = []
        for step in 0..<600 {
            let ids = player.tracks.map(\.id)
            if ids.isEmpty { player.add((0..<5).map { "file:///music/refill-\(step)-\($0).flac" }); continue }
            let pick = { ids[Int.random(in: 0..<ids.count, using: &random)] }
            switch step % 7 {
            case 0: player.move(pick(), to: .after(pick()))
            case 1: player.move(pick(), to: Bool.random(using: &random) ? .start : .end)
            case 2:
                let id = pick()
                player.remove(id)
                gone.append(id)
            case 3: player.add(["file:///music/new-\(step).flac"], at: .after(pick()))
            case 4:
                // Several at once: a run of consecutive ids in the middle, at the start or at the end.
                let count = Int.random(in: 1...6, using: &random)
                let position: QueuePosition = [.after(pick()), .start, .end][step % 3]
                player.add((0..<count).map { "file:///music/batch-\(step)-\($0).flac" }, at: position)
            case 5:
                let some = (0..<Int.random(in: 1...4, using: &random)).map { _ in pick() }
                player.remove(some)
                gone += some
            default: player.updateTags(pick(), TrackTags())
            }
            for (index, track) in player.tracks.enumerated() {
                XCTAssertEqual(player.track(track.id), track, "step \(step), index \(index)")
                XCTAssertEqual(player.index(of: track.id), index, "step \(step)")
            }
            for id in gone.suffix(8) { XCTAssertNil(player.track(id), "step \(step): removed \(id) still found") }
            XCTAssertNil(player.track(TrackID(1_000_000)), "an id never given is not found")
        }
    }
}
