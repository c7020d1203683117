import XCTest
import PlayerCore
import TestSupport

/// Every change a player announced, in order.
final class ChangeRecorder: PlayerObserver {
    var changes: [PlayerChange] = []
    func playerDidChange(_ change: PlayerChange) { changes.append(change) }

    /// The changes so far, forgetting them.
    func drain() -> [PlayerChange] {
        defer { changes = [] }
        return changes
    }
}

/// SplitMix64: shuffles that are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A player on a fake engine whose clock stands still unless a test moves it (`elapse`, `finishCurrentTrack`).
class PlayerTestCase: XCTestCase {
    var engine: FakeEngine!
    var player: Player!
    var recorder: ChangeRecorder!

    override func setUp() {
        super.setUp()
        engine = FakeEngine()
        engine.timeScale = 0
        player = Player(engine: engine, random: SeededGenerator(state: 42))
        recorder = ChangeRecorder()
        player.addObserver(recorder)
    }

    override func tearDown() {
        engine.deliverEvents()
        player = nil
        engine = nil
        super.tearDown()
    }

    func uri(_ number: Int) -> String { "file:///music/\(number).flac" }

    @discardableResult
    func queue(_ count: Int) -> [TrackID] {
        player.add((1...count).map(uri))
    }

    /// Delivers every event the engine has on its way, and those they cause.
    func settle(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(engine.deliverEvents(), "engine events still in flight", file: file, line: line)
    }

    /// Queues `count` tracks and plays the first until it is heard; commands and changes are then cleared.
    @discardableResult
    func startPlaying(_ count: Int) -> [TrackID] {
        let ids = queue(count)
        player.play()
        settle()
        forgetHistory()
        return ids
    }

    /// Queues tracks with these tags and plays the first until it is heard.
    func play(_ tagged: [TrackTags]) -> [TrackID] {
        let ids = queue(tagged.count)
        for (id, tags) in zip(ids, tagged) { player.updateTags(id, tags) }
        player.play()
        settle()
        return ids
    }

    /// Tags that name an album, and its artist and album artist when given.
    func tags(album: String?, artist: String? = nil, albumArtist: String? = nil) -> TrackTags {
        var tags = TrackTags()
        tags.album = album
        tags.artists = artist.map { [$0] } ?? []
        tags.albumArtists = albumArtist.map { [$0] } ?? []
        return tags
    }

    func forgetHistory() {
        engine.clearCommands()
        _ = recorder.drain()
    }

    func item(_ id: TrackID) -> EngineItem {
        EngineItem(id: id, uri: player.track(id)!.uri)
    }

    /// The `load` commands the engine received.
    var loads: [FakeEngine.Command] {
        engine.commands.filter { if case .load = $0 { return true } else { return false } }
    }

    func statusChanges(_ changes: [PlayerChange]) -> [PlaybackStatus] {
        changes.compactMap { if case .status(let status) = $0 { return status } else { return nil } }
    }

    func seekedChanges(_ changes: [PlayerChange]) -> [Duration] {
        changes.compactMap { if case .seeked(let position) = $0 { return position } else { return nil } }
    }

    func capabilities(next: Bool, previous: Bool, seek: Bool) -> PlayerCapabilities {
        var can = PlayerCapabilities()
        can.canPlay = true
        can.canPause = true
        can.canGoNext = next
        can.canGoPrevious = previous
        can.canSeek = seek
        return can
    }
}
