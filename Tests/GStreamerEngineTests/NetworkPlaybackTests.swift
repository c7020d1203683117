import EventLoop
import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Remote files through the real engine, a real nginx and the media cache; the access log shows
/// which bytes were asked for.
final class NetworkPlaybackTests: XCTestCase {
    private func play(_ engine: GStreamerEngine, _ url: String, id: UInt64 = 1) -> EventRecorder {
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(id), uri: url), at: .zero, playing: true)
        return recorder
    }

    func testSecondPlayOfACachedFileDownloadsNoBody() throws {
        let net = try NetworkFixture()
        let url = net.server.url("short.mp3")
        let engine = try net.engine()
        play(engine, url).wait(for: .endOfStream(TrackID(1)), timeout: 30)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { net.isCached(url, completely: net.size(of: "short.mp3")) },
                      "sidecar: \(String(describing: net.sidecar(of: url)))")
        let firstPlay = net.server.accessLog.count
        XCTAssertGreaterThan(net.server.accessLog.reduce(0) { $0 + $1.bodyBytes }, 100_000)

        let again = play(engine, url, id: 2)
        again.wait(for: .endOfStream(TrackID(2)), timeout: 30)
        XCTAssertTrue(eventually(timeout: 5) { net.server.accessLog.count > firstPlay }, "no revalidation request")
        let second = Array(net.server.accessLog.dropFirst(firstPlay))
        XCTAssertEqual(second.map(\.bodyBytes).reduce(0, +), 0, "\(second)")
        XCTAssertEqual(second.map(\.status), [304], "\(second)")
    }

    func testACompleteCachedFilePlaysWithoutTheServer() throws {
        let net = try NetworkFixture()
        let url = net.server.url("short.mp3")
        let engine = try net.engine()
        play(engine, url).wait(for: .endOfStream(TrackID(1)), timeout: 30)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { net.isCached(url, completely: net.size(of: "short.mp3")) })
        net.server.stop()
        let offline = play(engine, url, id: 2)
        offline.wait(for: .endOfStream(TrackID(2)), timeout: 30)
        XCTAssertFalse(offline.events.contains { if case .failed = $0 { return true } else { return false } })
    }

    func testAResumedDownloadAsksOnlyForTheMissingRange() throws {
        let net = try NetworkFixture(slowRate: 24 * 1024)
        let url = net.server.url("slow/long.mp3")
        let engine = try net.engine(sink: "fakesink sync=true")
        play(engine, url).wait(for: .trackStarted(TrackID(1)), timeout: 20)
        runLoop(for: 3)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { (net.presentRanges(of: url).first?.1 ?? 0) > 16_384 })
        let ranges = net.presentRanges(of: url)
        let resumeAt = ranges[0].1
        XCTAssertLessThan(resumeAt, net.longSize, "the first play must stop before the download ends")
        let firstPlay = net.server.accessLog.count

        play(engine, url, id: 2).wait(for: .trackStarted(TrackID(2)), timeout: 20)
        XCTAssertTrue(eventually(timeout: 5) { net.server.accessLog.count > firstPlay } || true)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { net.server.accessLog.count > firstPlay })
        let resumed = net.server.accessLog[firstPlay]
        XCTAssertEqual(resumed.status, 206, "\(net.server.accessLog)")
        XCTAssertTrue(resumed.range?.hasPrefix("bytes=\(resumeAt)-") == true,
                      "expected bytes=\(resumeAt)-…, log: \(net.server.accessLog), ranges \(ranges)")
    }

    /// A far seek completes and playing goes on from there. On MP3, baseparse (pull mode) scans every
    /// byte up to the target, so the seek waits for the linear download instead of asking for a Range
    /// at the target: measured, and listed as open in the report.
    func testAFarSeekOnASlowLinkCompletes() throws {
        let net = try NetworkFixture(slowRate: 48 * 1024)
        let url = net.server.url("slow/long.mp3")
        let engine = try net.engine(sink: "fakesink sync=true")
        let recorder = play(engine, url)
        recorder.wait(for: "duration", timeout: 20) { event -> Bool? in
            if case .duration(_, .some) = event { return true } else { return nil }
        }
        engine.seek(to: .seconds(20), exact: false)
        let landed = recorder.wait(for: "seekCompleted", timeout: 30) { event -> Duration? in
            if case .seekCompleted(let at) = event { return at } else { return nil }
        }
        XCTAssertEqual(seconds(landed), 20, accuracy: 1.5)
        runLoop(for: 1)
        XCTAssertGreaterThan(seconds(engine.position), 20.3)
    }

    func testNotFoundAndServerErrorsFailAfterBoundedRetries() throws {
        let net = try NetworkFixture()
        let engine = try net.engine(retries: 2, retryDelay: 0.1)
        let missing = net.server.url("missing.mp3")
        let notFound = play(engine, missing).waitForFailure()
        XCTAssertEqual(notFound?.kind, .notFound)
        XCTAssertTrue(notFound?.message.contains(missing) == true && notFound?.message.contains("404") == true,
                      notFound?.message ?? "")
        XCTAssertEqual(net.server.accessLog.filter { $0.request.contains("missing.mp3") }.count, 3)

        let broken = net.server.url("error500/x.mp3")
        let serverError = play(engine, broken, id: 2).waitForFailure()
        XCTAssertEqual(serverError?.kind, .network)
        XCTAssertTrue(serverError?.message.contains("500") == true, serverError?.message ?? "")
        XCTAssertEqual(net.server.accessLog.filter { $0.request.contains("error500") }.count, 3)
    }

    func testConnectionRefusedFailsAsANetworkError() throws {
        let net = try NetworkFixture()
        net.server.stop()
        let engine = try net.engine(retries: 1, retryDelay: 0.1)
        let error = play(engine, net.server.url("short.mp3")).waitForFailure()
        XCTAssertEqual(error?.kind, .network)
        XCTAssertTrue(error?.message.contains("refused") == true, error?.message ?? "")
    }

    func testServerGoneMidTrackIsRetriedAndResumedWhereItStopped() throws {
        let net = try NetworkFixture(slowRate: 32 * 1024)
        let url = net.server.url("slow/short.mp3")
        let engine = try net.engine(retries: 6, retryDelay: 0.3)
        let recorder = play(engine, url)
        recorder.wait(for: .trackStarted(TrackID(1)), timeout: 20)
        runLoop(for: 1.5)
        net.server.kill()
        runLoop(for: 1.5)
        try net.server.start()
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 40)
        XCTAssertFalse(recorder.events.contains { if case .failed = $0 { return true } else { return false } })
        let resumed = net.server.accessLog.compactMap(\.range).filter { !$0.hasPrefix("bytes=0-") }
        XCTAssertFalse(resumed.isEmpty, "no request resumed past byte 0: \(net.server.accessLog)")
        XCTAssertTrue(net.isCached(url, completely: net.size(of: "short.mp3")) || eventually(timeout: 5) {
            net.isCached(url, completely: net.size(of: "short.mp3"))
        })
    }

    func testATruncatedOrUnreadableCacheEntryIsFetchedAgain() throws {
        let net = try NetworkFixture()
        let url = net.server.url("short.mp3")
        let size = net.size(of: "short.mp3")
        let engine = try net.engine()
        play(engine, url).wait(for: .endOfStream(TrackID(1)), timeout: 30)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { net.isCached(url, completely: size) })

        let data = try FileHandle(forWritingTo: net.cache.dataFile(for: url))
        try data.truncate(atOffset: size / 2)
        try data.close()
        var logged = net.server.accessLog.count
        play(engine, url, id: 2).wait(for: .endOfStream(TrackID(2)), timeout: 30)
        engine.stop()
        XCTAssertTrue(net.server.accessLog.dropFirst(logged).contains { $0.status == 200 && $0.bodyBytes == Int(size) },
                      "\(net.server.accessLog)")

        XCTAssertTrue(eventually(timeout: 5) { net.isCached(url, completely: size) })
        try Data("{not json".utf8).write(to: net.cache.sidecarFile(for: url))
        logged = net.server.accessLog.count
        play(engine, url, id: 3).wait(for: .endOfStream(TrackID(3)), timeout: 30)
        XCTAssertTrue(net.server.accessLog.dropFirst(logged).contains { $0.status == 200 && $0.bodyBytes == Int(size) },
                      "\(net.server.accessLog)")
    }
}
