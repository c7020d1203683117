import ControlAPI
import XCTest

final class ArgumentURITests: XCTestCase {
    func testRelativePathsResolveAgainstTheWorkingDirectoryWithoutTouchingTheDisk() {
        XCTAssertEqual(FileURI.uri(forArgument: "a b.flac", workingDirectory: "/music"), "file:///music/a%20b.flac")
        XCTAssertEqual(FileURI.uri(forArgument: "./x/../y/#1.ogg", workingDirectory: "/m/"), "file:///m/y/%231.ogg")
        XCTAssertEqual(FileURI.uri(forArgument: "/abs//é.mp3", workingDirectory: "/ignored"), "file:///abs/%C3%A9.mp3")
    }

    func testArgumentsWithASchemeStayAsTheyAre() {
        XCTAssertEqual(FileURI.uri(forArgument: "http://127.0.0.1/a b", workingDirectory: "/m"), "http://127.0.0.1/a b")
        XCTAssertEqual(FileURI.uri(forArgument: "file:///a%20b", workingDirectory: "/m"), "file:///a%20b")
        // One letter is a drive or a name, not a scheme; a colon later in a name is not a scheme either.
        XCTAssertEqual(FileURI.uri(forArgument: "C:x.flac", workingDirectory: "/m"), "file:///m/C:x.flac")
        XCTAssertEqual(FileURI.uri(forArgument: "my song: live.flac", workingDirectory: "/m"),
                       "file:///m/my%20song:%20live.flac")
    }

    func testTrackPathsRoundTripAndRefuseOthers() {
        XCTAssertEqual(ControlAPI.TrackPath.path(of: 7), "/org/quaver/Track/7")
        XCTAssertEqual(ControlAPI.TrackPath.number(of: "/org/quaver/Track/7"), 7)
        XCTAssertNil(ControlAPI.TrackPath.number(of: ControlAPI.TrackPath.noTrack))
        XCTAssertNil(ControlAPI.TrackPath.number(of: "/org/quaver/Track/7/8"))
    }

    func testLoopStatusSpellings() {
        XCTAssertEqual(ControlAPI.LoopStatus.allCases.map(\.rawValue), ["None", "Track", "Playlist"])
        XCTAssertNil(ControlAPI.LoopStatus(rawValue: "track"))
    }
}
