import XCTest
import PlayerCore
import TestSupport

/// The queue keeps entries in a compact stored form (shared tags, no cover bytes) and edits thousands
/// of them at once: what clients read back must be exactly what went in.
final class CompactQueueTests: PlayerTestCase {
    private func tags(title: String, album: String, artist: String, track: Int) -> TrackTags {
        var tags = TrackTags()
        tags.title = title
        tags.album = album
        tags.artists = [artist]
        tags.albumArtists = [artist]
        tags.genres = ["Ambient"]
        tags.trackNumber = track
        tags.discNumber = 1
        return tags
    }

    func testEntriesReadBackAsQueuedWithSharedAndOwnTags() {
        let entries = (1...6).map { number in
            QueueEntry(uri: uri(number), tags: tags(title: "Song \(number)", album: "Album \(number % 2)",
                                                    artist: "Artist", track: number),
                       duration: .nanoseconds(1_000_000_007 * Int64(number)))
        }
        let ids = player.add(entries, at: .end)
        XCTAssertEqual(player.tracks.map { QueueEntry(uri: $0.uri, tags: $0.tags, duration: $0.duration) }, entries)
        XCTAssertEqual(player.tracks(in: 2..<4).map(\.id), Array(ids[2..<4]))
        XCTAssertEqual(player.tracks(in: 5..<50).map(\.id), [ids[5]], "a range past the end is clamped")
        XCTAssertEqual(player.trackIDs, ids)
        XCTAssertEqual(player.queueLength, 6)
        XCTAssertEqual(player.uri(of: ids[3]), uri(4))
        XCTAssertEqual(PreparedEntries(entries).entries, entries)
    }

    func testOnlyTheNewestCoverIsKept() {
        let ids = queue(2)
        let cover = { (byte: UInt8) in CoverImage(data: [0xFF, 0xD8, byte], mimeType: "image/jpeg") }
        var first = TrackTags()
        first.coverImage = cover(1)
        player.updateTags(ids[0], first)
        XCTAssertEqual(player.track(ids[0])?.tags.coverImage, cover(1))
        var second = TrackTags()
        second.coverImage = cover(2)
        player.updateTags(ids[1], second)
        XCTAssertEqual(player.track(ids[1])?.tags.coverImage, cover(2))
        XCTAssertNil(player.track(ids[0])?.tags.coverImage, "cover bytes stay with one track only")
    }

    /// Covers are compared by digest (TAG messages repeat the whole cover), and the digest names the art
    /// cache's files, so it is the same in every run.
    func testACoversDigestIsStableAndTellsCoversApart() {
        let bytes = (0..<1_003).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // 125 words and a tail of 3
        let cover = CoverImage(data: bytes, mimeType: "image/png")
        XCTAssertEqual(cover.digest, 0x3f6c_f852_9541_7bf3, "as a Python rendering of the same steps gives")
        XCTAssertEqual(cover, CoverImage(data: Array(bytes), mimeType: "image/png"), "equal bytes in other storage")
        var changed = bytes
        changed[500] ^= 1
        XCTAssertNotEqual(cover, CoverImage(data: changed, mimeType: "image/png"))
        XCTAssertNotEqual(cover, CoverImage(data: bytes + [0], mimeType: "image/png"), "a byte in the tail")
        XCTAssertNotEqual(cover, CoverImage(data: bytes, mimeType: "image/jpeg"))
    }

    /// Once its track stops being current no one reads a cover's bytes, and a 15 MB one stayed resident.
    func testACoverIsDroppedWhenItsTrackIsNoLongerCurrent() {
        let ids = startPlaying(3)
        var tags = TrackTags()
        tags.coverImage = CoverImage(data: [0xFF, 0xD8, 1], mimeType: "image/jpeg")
        player.updateTags(ids[0], tags)
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[1])
        XCTAssertNil(player.track(ids[0])?.tags.coverImage)
        player.updateTags(ids[1], tags)
        player.clear()
        player.add([uri(1)])
        XCTAssertNil(player.currentTrack?.tags.coverImage, "nothing left of the cleared queue's cover")
    }

    func testRemovingManyAtOnceKeepsOrderAndAnnouncesEach() {
        let ids = startPlaying(6)
        _ = recorder.drain()
        player.remove([ids[4], ids[1], ids[4], TrackID(999)])
        XCTAssertEqual(player.trackIDs, [ids[0], ids[2], ids[3], ids[5]])
        XCTAssertEqual(recorder.drain(), [.trackRemoved(ids[4]), .trackRemoved(ids[1])])
        for (index, id) in player.trackIDs.enumerated() { XCTAssertEqual(player.index(of: id), index) }
        XCTAssertEqual(player.currentTrackID, ids[0])
    }

    func testRemovingTheCurrentAndWhatFollowsPlaysTheFirstThatStays() {
        let ids = startPlaying(5)
        player.remove([ids[0], ids[1], ids[2]])
        XCTAssertEqual(player.currentTrackID, ids[3])
        XCTAssertEqual(player.status, .playing)
        XCTAssertEqual(engine.commands.first, .load(item(ids[3]), at: .zero, playing: true))
    }

    func testRemovingTheCurrentAndEverythingAfterItStops() {
        let ids = startPlaying(4)
        player.next()
        settle()
        player.remove([ids[1], ids[2], ids[3]])
        XCTAssertEqual(player.trackIDs, [ids[0]])
        XCTAssertEqual(player.currentTrackID, ids[0])
        XCTAssertEqual(player.status, .stopped)
    }

    func testRemovingManyWhenShuffledSkipsTheRemovedInTheRound() {
        let ids = startPlaying(8)
        player.setShuffle(true)
        settle()
        let current = player.currentTrackID!
        let others = ids.filter { $0 != current }
        player.remove([current] + others.prefix(3))
        let survivor = player.currentTrackID!
        XCTAssertTrue(Array(others.dropFirst(3)).contains(survivor))
        XCTAssertEqual(player.status, .playing)
    }

    /// A snapshot is a copy as of when it was taken, whatever happens to the queue afterwards.
    func testSnapshotDoesNotChangeWithTheQueue() {
        let ids = queue(3)
        let snapshot = player.queueSnapshot
        player.remove(ids[1])
        player.add([uri(9)])
        XCTAssertEqual(snapshot.count, 3)
        var uris: [String] = []
        snapshot.forEach { uris.append($0.uri) }
        XCTAssertEqual(uris, [uri(1), uri(2), uri(3)])
    }

    /// URIs and titles are packed into one byte array with shared folders: every kind of text comes back
    /// byte for byte, through title changes and removals that leave most of the array unused (it is then
    /// rewritten without them, which must move no text to another track).
    func testPackedTextsComeBackExactlyThroughEditsAndCompaction() {
        let odd = ["file:///m/Björk/Homogenic/01 Hunter.flac", "http://host:8000/stream", "no-folder-at-all",
                   "file:///m/", "file:///m/%20spaced%2F.ogg", "file:///m/e\u{301}cole/🎵.mp3", ""]
        let many = (0..<3_000).map { "file:///music/Artist \($0 % 7)/Album \($0 % 31)/\($0) Track.flac" }
        let titles: [String?] = [nil, "", "Short", String(repeating: "Long title ", count: 4), "Ünïcødé ✓"]
        let entries = (odd + many).enumerated().map { index, uri in
            var tags = TrackTags()
            tags.title = titles[index % titles.count]
            return QueueEntry(uri: uri, tags: tags)
        }
        var ids = player.add(entries, at: .end)
        var expected = Dictionary(uniqueKeysWithValues: zip(ids, entries))
        // Every other title replaced, then two thirds of the tracks removed: most bytes are unused.
        for (index, id) in ids.enumerated() where index % 2 == 0 {
            var tags = TrackTags()
            tags.title = "Renamed \(index) " + String(repeating: "x", count: index % 40)
            player.updateTags(id, tags)
            expected[id]?.tags.title = tags.title
        }
        let removed = ids.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
        player.remove(removed)
        removed.forEach { expected[$0] = nil }
        ids = player.trackIDs
        XCTAssertEqual(ids.count, expected.count)
        for id in ids {
            let track = player.track(id)
            XCTAssertEqual(track?.uri, expected[id]?.uri)
            XCTAssertEqual(track?.tags.title, expected[id]?.tags.title, "\(expected[id]?.uri ?? "")")
            XCTAssertEqual(player.uri(of: id), expected[id]?.uri)
        }
        // And queued after all that, into the rewritten array.
        let later = player.add([QueueEntry(uri: "file:///music/Artist 1/Album 1/late.flac")], at: .start)
        XCTAssertEqual(player.track(later[0])?.uri, "file:///music/Artist 1/Album 1/late.flac")
        XCTAssertEqual(player.track(ids[0])?.uri, expected[ids[0]]?.uri)
    }

    /// A stored text is at most 64 KiB: a longer title (only a broken or hostile tag has one) is cut on a
    /// whole character, and a URI of any length still comes back whole, its name beyond that stored with
    /// the folder.
    func testTextsBeyond64KiB() {
        let longName = "file:///m/" + String(repeating: "a", count: 70_000) + ".flac"
        let longMultibyte = "file:///m/" + String(repeating: "é", count: 40_000) + "/x/" + String(repeating: "🎵", count: 20_000)
        let longQuery = "http://host/stream?" + String(repeating: "k=v&", count: 30_000)
        let title = "T" + String(repeating: "ü", count: 40_000)  // 80 001 bytes
        var titled = TrackTags()
        titled.title = title
        let ids = player.add([QueueEntry(uri: longName, tags: titled), QueueEntry(uri: longMultibyte),
                              QueueEntry(uri: longQuery), QueueEntry(uri: uri(1))], at: .end)
        XCTAssertEqual(ids.compactMap { player.uri(of: $0) }, [longName, longMultibyte, longQuery, uri(1)])
        let kept = player.track(ids[0])?.tags.title ?? ""
        XCTAssertEqual(kept.utf8.count, 65_535, "1 + 32 767 two-byte characters")
        XCTAssertTrue(title.hasPrefix(kept))
        var short = TrackTags()
        short.title = "Short"
        player.updateTags(ids[0], short)
        XCTAssertEqual(player.track(ids[0])?.tags.title, "Short")
        XCTAssertEqual(player.uri(of: ids[0]), longName)
    }
}
