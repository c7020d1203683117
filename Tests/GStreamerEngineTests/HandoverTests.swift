@testable import GStreamerEngine
import PlayerCore
import XCTest

/// What the streaming thread may take at about-to-finish (`Handover.takeNext`).
final class HandoverTests: XCTestCase {
    private let local = EngineItem(id: TrackID(1), uri: "file:///music/next.flac")

    /// A local file is handed over for a gapless switch only once it has prerolled (`NextItemCheck`): one
    /// that fails at once must fail in an ordinary load, not inside playbin's switch.
    func testALocalFileIsHandedOverOnlyOnceItHasPrerolled() {
        let handover = Handover()
        handover.prepare(local, remote: nil)
        XCTAssertNil(handover.takeNext())
        handover.checked(EngineItem(id: TrackID(2), uri: local.uri))  // another entry of the same file
        XCTAssertNil(handover.takeNext())
        handover.checked(local)
        XCTAssertEqual(handover.takeNext()?.item, local)
        XCTAssertNil(handover.takeNext(), "taken once")
    }

    /// The check belongs to the entry prepared: preparing another (or the same again, after a load) starts over.
    func testACheckIsForgottenWhenAnotherItemIsPrepared() {
        let handover = Handover()
        handover.prepare(local, remote: nil)
        handover.checked(local)
        let other = EngineItem(id: TrackID(3), uri: "file:///music/other.flac")
        handover.prepare(other, remote: nil)
        XCTAssertNil(handover.takeNext())
        handover.prepare(local, remote: nil)
        XCTAssertNil(handover.takeNext())
    }

    /// A refreshed entry (new album facts) keeps its check.
    func testARefreshKeepsTheCheck() {
        let handover = Handover()
        handover.prepare(local, remote: nil)
        handover.checked(local)
        var refreshed = local
        refreshed.sharesAlbumWithNeighbour = true
        XCTAssertTrue(handover.refresh(refreshed))
        XCTAssertEqual(handover.takeNext()?.item, refreshed)
    }
}
