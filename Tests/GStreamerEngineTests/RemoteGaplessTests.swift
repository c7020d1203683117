import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// A remote next track goes from the cache too: its download starts once the current file is complete,
/// playbin gets it as `appsrc://` at about-to-finish, and the joint stays bit-exact.
final class RemoteGaplessTests: XCTestCase {
    func testTheNextRemoteTrackIsPrefetchedIntoTheCacheAndJoinsBitExactly() throws {
        let net = try NetworkFixture()
        let fixtures = try Fixtures.shared()
        let directory = try TemporaryDirectory(prefix: "quaver-remote-gapless")
        let written = directory.url.appendingPathComponent("joined.wav")
        // identity sync=true: real time, as a sound card would take it, so about-to-finish comes when
        // the first half is nearly heard rather than at once (async=false: the bin's sink must not wait
        // for a preroll buffer that identity holds back until PLAYING).
        let engine = try net.engine(sink: "audioconvert ! audio/x-raw,format=S16LE ! identity sync=true ! wavenc ! "
                                        + "filesink async=false location=\"\(written.path)\"")
        let recorder = EventRecorder()
        engine.delegate = recorder
        let first = net.server.url("sweep-1.flac"), second = net.server.url("sweep-2.flac")
        engine.load(EngineItem(id: TrackID(1), uri: first), at: .zero, playing: true)
        engine.prepareNext(EngineItem(id: TrackID(2), uri: second))
        recorder.wait(for: .endOfStream(TrackID(2)), timeout: 20)
        engine.stop()

        XCTAssertEqual(recorder.events.filter { if case .trackStarted = $0 { return true } else { return false } },
                       [.trackStarted(TrackID(1)), .trackStarted(TrackID(2))])
        let requests = net.server.accessLog
        XCTAssertEqual(requests.map { $0.request.split(separator: " ")[1] }, ["/sweep-1.flac", "/sweep-2.flac"], "\(requests)")
        XCTAssertEqual(Set(requests.map(\.userAgent)), ["Quaver"], "playbin's own source was used: \(requests)")
        XCTAssertTrue(eventually(timeout: 5) { net.isCached(second, completely: net.size(of: "sweep-2.flac")) },
                      "\(net.presentRanges(of: second))")

        let expected = try wavSamples(fixtures.sweep)
        let got = try wavSamples(written)
        XCTAssertEqual(got.count, expected.count, "sample count")
        let firstDifference = zip(got, expected).enumerated().first { $1.0 != $1.1 }?.offset
        XCTAssertNil(firstDifference, "first different frame \((firstDifference ?? 0) / Fixtures.channels), "
                     + "joint at \(Fixtures.firstHalfFrames)")
    }

    /// A next track whose download has not answered by about-to-finish (the server is gone) is left to
    /// playbin's own source, which reports it failed; the first track ends normally.
    /// A next remote track whose download has not answered by the end of the current one is not handed to
    /// playbin (whose own HTTP source would fetch it): the current track ends, and loaded as the core then
    /// loads it, it fails as not found.
    func testANextTrackThatCannotBeFetchedFailsWithoutHangingTheFirst() throws {
        let net = try NetworkFixture()
        let engine = try net.engine(sink: "fakesink sync=true", retries: 0)
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: net.server.url("sweep-1.flac")), at: .zero, playing: true)
        let missing = EngineItem(id: TrackID(2), uri: net.server.url("missing.flac"))
        engine.prepareNext(missing)
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 20)
        XCTAssertTrue(recorder.contains(.trackStarted(TrackID(1))))
        XCTAssertFalse(recorder.contains(.trackStarted(TrackID(2))), "\(recorder.events)")
        engine.load(missing, at: .zero, playing: true)
        let error = recorder.waitForFailure(timeout: 20)
        XCTAssertEqual(error?.kind, .notFound, "\(recorder.events)")
    }
}
