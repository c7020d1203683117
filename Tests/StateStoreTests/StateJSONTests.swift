import Foundation
@testable import StateStore
import XCTest

/// The state file's own writer must produce what the Codable form (and so every reader of older files)
/// decodes to the same state.
final class StateJSONTests: XCTestCase {
    private func roundTrip(_ state: SavedState) throws -> SavedState {
        try JSONDecoder().decode(SavedState.self, from: Data(try StateJSON.encode(state)))
    }

    func testEveryFieldComesBack() throws {
        var state = SavedState(queue: [
            SavedTrack(uri: "file:///m/a.flac", metadata: SavedMetadata(
                title: "A", artists: ["X", "Y"], album: "L", albumArtists: ["Z"], trackNumber: 3, discNumber: 2,
                lengthMicroseconds: 90_000_000, artURL: "file:///c/a.jpg")),
            SavedTrack(uri: "file:///m/b.flac"),
            SavedTrack(uri: "http://r.example/s", metadata: SavedMetadata(title: "only a title")),
        ], currentIndex: 1, positionMicroseconds: 5_000_001, volume: 0.4, rate: 1.25, loopMode: "Playlist",
           shuffle: true, wasPlaying: true)
        state.revision = "rev-1"
        XCTAssertEqual(try roundTrip(state), state)
        XCTAssertEqual(try roundTrip(SavedState()), SavedState())
    }

    func testTextThatNeedsEscapingComesBackUnchanged() throws {
        let nasty = "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} é 漢字 🎵 \u{2028}"
        let state = SavedState(queue: [SavedTrack(uri: "file:///m/\(nasty)", metadata: SavedMetadata(
            title: nasty, artists: [nasty], album: nasty))], loopMode: nasty)
        XCTAssertEqual(try roundTrip(state), state)
    }

    /// Empty lists and unknown values are left out, as the Codable form leaves them out.
    func testUnknownFieldsAreLeftOut() throws {
        let text = String(decoding: try StateJSON.encode(SavedState(queue: [SavedTrack(uri: "file:///m/a.flac",
            metadata: SavedMetadata(title: "T"))])), as: UTF8.self)
        XCTAssertEqual(text, #"{"version":2,"queue":[{"f":0,"n":"a.flac","title":"T"}],"folders":["file:///m/"],"#
            + #""sharedTags":[],"positionMicroseconds":0,"volume":1.0,"rate":1.0,"loopMode":"None","shuffle":false,"#
            + #""wasPlaying":false}"#)
    }

    /// Each folder and each album's shared tags are written once, whatever the number of tracks naming them.
    func testFoldersAndAlbumTagsAreStoredOnce() throws {
        let tracks = (0..<300).map { n in
            SavedTrack(uri: "file:///music/Artist \(n % 3)/Album \(n % 3)/\(n).flac", metadata: SavedMetadata(
                title: "T\(n)", artists: ["Artist \(n % 3)"], album: "Album \(n % 3)", trackNumber: n,
                lengthMicroseconds: Int64(n)))
        }
        let state = SavedState(queue: tracks + [SavedTrack(uri: "no-slash"), SavedTrack(uri: "file:///music/")])
        let bytes = try StateJSON.encode(state)
        XCTAssertEqual(try roundTrip(state), state)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "Album 1/").count - 1, 1, "one folder entry")
        XCTAssertEqual(text.components(separatedBy: #""album":"Album 2""#).count - 1, 1, "one shared tag set")
    }

    /// Files written before version 2 (a full URI and tag set per track) are still read as they were.
    func testAVersionOneFileIsRead() throws {
        let text = #"{"version":1,"queue":[{"uri":"file:///m/a.flac","metadata":{"title":"T","artists":["X"],"album":"L","#
            + #""trackNumber":3,"lengthMicroseconds":5}},{"uri":"http://r.example/s"}],"currentIndex":1,"#
            + #""positionMicroseconds":7,"volume":0.5,"rate":1.0,"loopMode":"Track","shuffle":true,"wasPlaying":true}"#
        let state = try JSONDecoder().decode(SavedState.self, from: Data(text.utf8))
        var expected = SavedState(queue: [
            SavedTrack(uri: "file:///m/a.flac", metadata: SavedMetadata(title: "T", artists: ["X"], album: "L", trackNumber: 3,
                                                                        lengthMicroseconds: 5)),
            SavedTrack(uri: "http://r.example/s"),
        ], currentIndex: 1, positionMicroseconds: 7, volume: 0.5, rate: 1, loopMode: "Track", shuffle: true, wasPlaying: true)
        expected.version = 1
        XCTAssertEqual(state, expected)
    }

    /// A track naming a folder or tag set the file does not have makes the file unusable, not a crash.
    func testAReferenceOutsideTheTablesIsAnError() {
        for track in [#"{"f":1,"n":"a"}"#, #"{"f":0,"n":"a","s":0}"#, #"{"f":-1,"n":"a"}"#] {
            let text = #"{"version":2,"queue":["# + track + #"],"folders":["file:///m/"],"sharedTags":[],"#
                + #""positionMicroseconds":0,"volume":1.0,"rate":1.0,"loopMode":"None","shuffle":false,"wasPlaying":false}"#
            XCTAssertThrowsError(try JSONDecoder().decode(SavedState.self, from: Data(text.utf8)), track)
        }
    }

    func testAPositionMarkComesBackAndLeavesOutAnUnknownIndex() throws {
        var state = SavedState(currentIndex: 7, positionMicroseconds: 123_456_789, wasPlaying: true)
        let mark = PositionMark(of: state, revision: "rev \" \\ é 🎵")
        XCTAssertEqual(try JSONDecoder().decode(PositionMark.self, from: Data(StateJSON.encode(mark))), mark)
        state.currentIndex = nil
        state.wasPlaying = false
        let noIndex = PositionMark(of: state, revision: "r")
        XCTAssertEqual(String(decoding: StateJSON.encode(noIndex), as: UTF8.self),
                       #"{"revision":"r","positionMicroseconds":123456789,"wasPlaying":false}"#)
        XCTAssertEqual(try JSONDecoder().decode(PositionMark.self, from: Data(StateJSON.encode(noIndex))), noIndex)
    }

    func testTheSleepTimerAndTheChosenOutputComeBack() throws {
        var state = SavedState()
        state.sleepTimer = "time"
        state.sleepDeadlineMicroseconds = 1_800_000_000_123_456
        state.output = "bluez_sink.00_11 \"héad\""
        XCTAssertEqual(try roundTrip(state), state)
    }

    func testANonFiniteVolumeIsRefusedNotWritten() {
        XCTAssertThrowsError(try StateJSON.encode(SavedState(volume: .nan)))
        XCTAssertThrowsError(try StateJSON.encode(SavedState(rate: .infinity)))
    }
}
