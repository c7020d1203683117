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
        XCTAssertEqual(text, #"{"version":1,"queue":[{"uri":"file:///m/a.flac","metadata":{"title":"T"}}],"#
            + #""positionMicroseconds":0,"volume":1.0,"rate":1.0,"loopMode":"None","shuffle":false,"wasPlaying":false}"#)
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

    func testANonFiniteVolumeIsRefusedNotWritten() {
        XCTAssertThrowsError(try StateJSON.encode(SavedState(volume: .nan)))
        XCTAssertThrowsError(try StateJSON.encode(SavedState(rate: .infinity)))
    }
}
