import EventLoop
import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Remote files through the real engine, a real nginx and the media cache; the access log shows
/// which bytes were asked for.
final class NetworkPlaybackTests: XCTestCase {
    func testSecondPlayOfACachedFileDownloadsNoBody() throws {
        let net = try NetworkFixture()
        let url = net.server.url("short.mp3")
        let engine = try net.engine()
        net.playToEndCached(engine, url, size: net.size(of: "short.mp3"))
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
        net.playToEndCached(engine, url, size: net.size(of: "short.mp3"))
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
        XCTAssertTrue(net.runUntilDownloaded(32 << 10, of: url), "the download got past 32 KiB")
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { (net.presentRanges(of: url).first?.1 ?? 0) > 16_384 })
        let ranges = net.presentRanges(of: url)
        let resumeAt = ranges[0].1
        XCTAssertLessThan(resumeAt, net.longSize, "the first play must stop before the download ends")
        // nginx logs a request when its connection closes, which the download does after saving the cache entry.
        // The first play made several (the start, the tags at the end, the start again from where it stopped) and
        // their lines come in the order they closed: wait until the request whose bytes end where the cached range
        // does is logged and the lines logged carry every byte the cache holds, else the resumed request is looked
        // for among the first play's (2 class runs of 8 at load 6-7).
        let cached = ranges.reduce(0) { $0 + Int($1.1 - $1.0) }
        XCTAssertTrue(eventually(timeout: 5) {
            net.server.accessLog.contains { firstByte(of: $0) + UInt64($0.bodyBytes) == resumeAt }
                && net.server.accessLog.reduce(0) { $0 + $1.bodyBytes } >= cached
        }, "the first play's requests were not all logged: \(net.server.accessLog), ranges \(ranges)")
        let firstPlay = net.server.accessLog.count

        play(engine, url, id: 2).wait(for: .trackStarted(TrackID(2)), timeout: 20)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { net.server.accessLog.count > firstPlay })
        let resumed = net.server.accessLog[firstPlay]
        XCTAssertEqual(resumed.status, 206, "\(net.server.accessLog)")
        XCTAssertTrue(resumed.range?.hasPrefix("bytes=\(resumeAt)-") == true,
                      "expected bytes=\(resumeAt)-…, log: \(net.server.accessLog), ranges \(ranges)")
    }

    /// The first byte a logged request asked for (its Range's start, 0 without one).
    private func firstByte(of request: AccessLogEntry) -> UInt64 {
        request.range.flatMap { UInt64($0.dropFirst("bytes=".count).prefix { $0.isNumber }) } ?? 0
    }

    /// A seek far beyond the downloaded part opens a Range request near the target's byte offset (not
    /// the linear download's next byte), and playing goes on from the target. Far: more than 20 s past
    /// the last frame parsed; nearer targets baseparse reaches by reading on (see RemoteFile.nearAhead).
    func testAFarSeekOnASlowLinkAsksForARangeAtTheTarget() throws {
        let net = try NetworkFixture(slowRate: 32 * 1024)
        let url = net.server.url("slow/long.mp3")
        let engine = try net.engine(sink: "fakesink sync=true")
        let recorder = play(engine, url)
        recorder.wait(for: "duration", timeout: 20) { event -> Bool? in
            if case .duration(_, .some) = event { return true } else { return nil }
        }
        let target = 45.0
        engine.seek(to: .seconds(target), exact: false)
        let landed = recorder.wait(for: "seekCompleted", timeout: 30) { event -> Duration? in
            if case .seekCompleted(let at) = event { return at } else { return nil }
        }
        XCTAssertEqual(seconds(landed), target, accuracy: 1.5)
        // Playing goes on from there (at the link's pace: 32 KB/s is about twice the file's bit rate).
        EventLoop.main.run(until: { seconds(engine.position) > target + 0.5 }, timeout: 6)
        XCTAssertGreaterThan(seconds(engine.position), target + 0.5, "events: \(recorder.events)")
        engine.stop()
        let targetByte = Double(net.longSize) * target / Double(NetworkFixture.longSeconds)
        assertRangeRequested(near: targetByte, from: net)
        assertTwoParts(net.presentRanges, of: url, splitBefore: targetByte)
    }

    /// nginx logs a request when it ends: the one cut short by `stop` appears soon after.
    private func assertRangeRequested(near byte: Double, from net: NetworkFixture,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let near = {
            net.server.accessLog.compactMap(\.range).compactMap(Self.rangeStart).contains { abs(Double($0) - byte) < byte / 20 }
        }
        XCTAssertTrue(eventually(timeout: 5, near), "no Range near byte \(Int(byte)): \(net.server.accessLog)",
                      file: file, line: line)
    }

    /// Once the sidecar is saved (on close): the bytes from 0 stop before `byte`, a part at it was fetched.
    private func assertTwoParts(_ ranges: @escaping (String) -> [(UInt64, UInt64)], of url: String, splitBefore byte: Double,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(eventually(timeout: 5) { ranges(url).count >= 2 }, "\(ranges(url))", file: file, line: line)
        let parts = ranges(url)
        XCTAssertLessThan(Double(parts.first?.1 ?? .max), byte, "\(parts)", file: file, line: line)
        XCTAssertTrue(parts.contains { abs(Double($0.0) - byte) < byte / 10 }, "\(parts)", file: file, line: line)
    }

    /// `bytes=N-…` → N.
    private static func rangeStart(_ header: String) -> UInt64? {
        guard header.hasPrefix("bytes=") else { return nil }
        return UInt64(header.dropFirst(6).prefix { $0 != "-" })
    }

    /// A load at a far position (a resumed session) jumps there by a Range request instead of an
    /// ACCURATE seek that parses every byte from the start.
    func testALoadAtAFarPositionStartsThereWithARangeRequest() throws {
        let net = try NetworkFixture(slowRate: 32 * 1024)
        let url = net.server.url("slow/long.mp3")
        let engine = try net.engine(sink: "fakesink sync=true")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: url), at: .seconds(45), playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)), timeout: 20)
        XCTAssertTrue(pump(until: { seconds(engine.position) > 45.5 }, timeout: 20),
                      "position \(seconds(engine.position)), log \(net.server.accessLog)")
        engine.stop()
        assertRangeRequested(near: Double(net.longSize) * 0.75, from: net)
        assertTwoParts(net.presentRanges, of: url, splitBefore: Double(net.longSize) * 0.75)
    }

    /// Over the size cap, closing an entry removes the least recently played ones (both files), not the
    /// one just played; an evicted file is fetched whole on its next play.
    func testTheCacheCapEvictsTheLeastRecentlyPlayedEntry() throws {
        let probe = try NetworkFixture()
        let capacity = probe.longSize + probe.size(of: "short.mp3") / 2
        let net = try NetworkFixture(cacheCapacity: capacity)
        let short = net.server.url("short.mp3"), long = net.server.url("long.mp3")
        let engine = try net.engine()
        net.playToEndCached(engine, short, size: net.size(of: "short.mp3"))
        net.playToEndCached(engine, long, id: 2, size: net.longSize, timeout: 60)
        XCTAssertTrue(eventually(timeout: 5) { !FileManager.default.fileExists(atPath: net.cache.sidecarFile(for: short).path) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: net.cache.dataFile(for: short).path))

        let logged = net.server.accessLog.count
        play(engine, short, id: 3).wait(for: .endOfStream(TrackID(3)), timeout: 30)
        engine.stop()
        XCTAssertTrue(net.server.accessLog.dropFirst(logged).contains {
            $0.status == 200 && $0.bodyBytes == Int(net.size(of: "short.mp3"))
        }, "\(net.server.accessLog)")
        XCTAssertTrue(eventually(timeout: 5) { !FileManager.default.fileExists(atPath: net.cache.sidecarFile(for: long).path) },
                      "the older long entry must go once short is back")
    }

    func testNotFoundAndServerErrorsFailAfterBoundedRetries() throws {
        let net = try NetworkFixture()
        let engine = try net.engine(retries: 2, retryDelay: 0.1)
        let missing = net.server.url("missing.mp3")
        let notFound = play(engine, missing).waitForFailure()
        XCTAssertEqual(notFound?.kind, .notFound)
        XCTAssertTrue(notFound?.message.contains(missing) == true && notFound?.message.contains("404") == true,
                      notFound?.message ?? "")
        assertRequests(3, containing: "missing.mp3", in: net)

        let broken = net.server.url("error500/x.mp3")
        let serverError = play(engine, broken, id: 2).waitForFailure()
        XCTAssertEqual(serverError?.kind, .network)
        XCTAssertTrue(serverError?.message.contains("500") == true, serverError?.message ?? "")
        assertRequests(3, containing: "error500", in: net)
    }

    /// nginx logs a request when it has ended, which may come just after the failure it caused is reported.
    private func assertRequests(_ expected: Int, containing text: String, in net: NetworkFixture,
                                file: StaticString = #filePath, line: UInt = #line) {
        let count = { net.server.accessLog.filter { $0.request.contains(text) }.count }
        _ = eventually(timeout: 5) { count() >= expected }
        usleep(200_000)  // the point: no more may come, and a request beyond the expected ones would be logged by now
        XCTAssertEqual(count(), expected, "\(net.server.accessLog)", file: file, line: line)
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
        XCTAssertTrue(net.runUntilDownloaded(32 << 10, of: url), "the download got past 32 KiB")
        net.server.kill()
        runLoop(for: 1.5)  // the point: an outage of 1.5 s, several retries long (one every 0.3 s)
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
        net.playToEndCached(engine, url, size: size)

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
