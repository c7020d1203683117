import Playlists
import XCTest

final class TrackOrderTests: XCTestCase {
    private struct Track {
        let uri: String
        let disc: Int?
        let track: Int?
    }

    func testDiscThenTrackThenNameWithinEachFolderOnly() {
        let tracks = [
            Track(uri: "file:///m/B/z.flac", disc: nil, track: 1),
            Track(uri: "file:///m/A/x%2010.flac", disc: 2, track: 1),
            Track(uri: "file:///m/A/x%202.flac", disc: nil, track: nil),
            Track(uri: "file:///m/A/x%2011.flac", disc: nil, track: nil),
            Track(uri: "file:///m/A/y.flac", disc: 1, track: 3),
            Track(uri: "file:///m/A/w.flac", disc: 1, track: 2),
            Track(uri: "file:///m/C/a.flac", disc: nil, track: 2),
            Track(uri: "file:///m/C/b.flac", disc: nil, track: 1),
        ]
        let sorted = TrackOrder.sortedWithinFolders(tracks, uri: \.uri, disc: \.disc, track: \.track)
        XCTAssertEqual(sorted.map(\.uri), [
            "file:///m/B/z.flac",
            "file:///m/A/w.flac", "file:///m/A/y.flac",    // disc 1 (given), by track
            "file:///m/A/x%202.flac", "file:///m/A/x%2011.flac",  // disc 1 (missing), no track: natural name
            "file:///m/A/x%2010.flac",                      // disc 2
            "file:///m/C/b.flac", "file:///m/C/a.flac",
        ])
    }

    func testKeyOrder() {
        XCTAssertLessThan(TrackSortKey(disc: nil, track: 9, fileName: "z"), TrackSortKey(disc: 1, track: 10, fileName: "a"))
        XCTAssertLessThan(TrackSortKey(disc: 1, track: 10, fileName: "z"), TrackSortKey(disc: 1, track: nil, fileName: "a"))
        XCTAssertLessThan(TrackSortKey(disc: 2, track: 7, fileName: "t9"), TrackSortKey(disc: 2, track: 7, fileName: "t10"))
        XCTAssertLessThan(TrackSortKey(disc: 1, track: nil, fileName: "z"), TrackSortKey(disc: 2, track: 1, fileName: "a"))
    }

    func testEqualKeysKeepTheirOrder() {
        let tracks = (0..<50).map { Track(uri: "file:///m/same.flac?\($0)", disc: 1, track: 1) }
        XCTAssertEqual(TrackOrder.sortedWithinFolders(tracks, uri: \.uri, disc: \.disc, track: \.track).map(\.uri),
                       tracks.map(\.uri))
    }
}
