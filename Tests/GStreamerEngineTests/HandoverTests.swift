import Foundation
import GStreamer
@testable import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// What the streaming thread may take at about-to-finish (`StreamingSide.takeNext`, Handover.swift).
final class HandoverTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var local: EngineItem!
    /// `local`'s file as it is now, as a check that prerolled it records it.
    private var prerolled: FileIdentity { FileIdentity(fileURI: local.uri)! }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "quaver-handover")
        let file = directory.url.appendingPathComponent("next.flac")
        try Data("a file that prerolled".utf8).write(to: file)
        local = EngineItem(id: TrackID(1), uri: file.absoluteString)
    }

    /// A local file is handed over for a gapless switch only once it has prerolled (`NextItemCheck`): one
    /// that fails at once must fail in an ordinary load, not inside playbin's switch.
    func testALocalFileIsHandedOverOnlyOnceItHasPrerolled() {
        let handover = StreamingSide()
        handover.prepare(local, remote: nil)
        XCTAssertNil(handover.takeNext())
        handover.checked(EngineItem(id: TrackID(2), uri: local.uri), file: prerolled)  // another entry of the same file
        XCTAssertNil(handover.takeNext())
        handover.checked(local, file: prerolled)
        XCTAssertEqual(handover.takeNext()?.item, local)
        XCTAssertNil(handover.takeNext(), "taken once")
    }

    /// The check belongs to the entry prepared: preparing another (or the same again, after a load) starts over.
    func testACheckIsForgottenWhenAnotherItemIsPrepared() {
        let handover = StreamingSide()
        handover.prepare(local, remote: nil)
        handover.checked(local, file: prerolled)
        let other = EngineItem(id: TrackID(3), uri: "file:///music/other.flac")
        handover.prepare(other, remote: nil)
        XCTAssertNil(handover.takeNext())
        handover.prepare(local, remote: nil)
        XCTAssertNil(handover.takeNext())
    }

    /// A refreshed entry (new album facts) keeps its check.
    func testARefreshKeepsTheCheck() {
        let handover = StreamingSide()
        handover.prepare(local, remote: nil)
        handover.checked(local, file: prerolled)
        var refreshed: EngineItem = local
        refreshed.sharesAlbumWithNeighbour = true
        XCTAssertTrue(handover.refresh(refreshed))
        XCTAssertEqual(handover.takeNext()?.item, refreshed)
    }

    /// A file written to, replaced or deleted since its check is not handed over: it would fail (or hang)
    /// inside playbin's switch, where GStreamer deadlocks.
    func testAFileChangedSinceItsCheckIsNotHandedOver() throws {
        let path = try XCTUnwrap(URL(string: local.uri)).path
        for change in [{ try Data("written to since".utf8).write(to: URL(fileURLWithPath: path)) },
                       { try FileManager.default.removeItem(atPath: path) }] {
            let handover = StreamingSide()
            handover.prepare(local, remote: nil)
            handover.checked(local, file: prerolled)
            try change()
            XCTAssertNil(handover.takeNext())
            XCTAssertFalse(handover.preparedAwaitsCheck, "checked, and refused: the track ends and the core loads it")
        }
    }
}
