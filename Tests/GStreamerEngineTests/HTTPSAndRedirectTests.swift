import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// https through RemoteMedia (libcurl), into the cache like http; redirects followed, the cache keyed
/// by the URL that was queued (without credentials). nginx serves both schemes with a certificate made for
/// the test, trusted through `SSL_CERT_FILE` only where a test says so.
final class HTTPSAndRedirectTests: XCTestCase {
    override func tearDown() {
        unsetenv("SSL_CERT_FILE")
        super.tearDown()
    }

    func testAnHTTPSFileIsCachedAndItsSecondPlayDownloadsNoBody() throws {
        let net = try NetworkFixture()
        setenv("SSL_CERT_FILE", net.server.certificate.path, 1)
        let url = net.server.secureURL("short.mp3")
        let engine = try net.engine()
        net.playToEndCached(engine, url, size: net.size(of: "short.mp3"))
        let first = net.server.accessLog
        XCTAssertEqual(first.map(\.scheme), ["https"], "\(first)")
        XCTAssertEqual(first.map(\.userAgent), ["Quaver"], "our client, not playbin's souphttpsrc: \(first)")
        XCTAssertEqual(first.first?.bodyBytes, Int(net.size(of: "short.mp3")))

        play(engine, url, id: 2).wait(for: .endOfStream(TrackID(2)), timeout: 30)
        XCTAssertTrue(eventually(timeout: 5) { net.server.accessLog.count > first.count }, "no revalidation request")
        let second = Array(net.server.accessLog.dropFirst(first.count))
        XCTAssertEqual(second.map(\.status), [304], "\(second)")
        XCTAssertEqual(second.map(\.bodyBytes), [0], "\(second)")
    }

    /// An untrusted certificate is a failure with the TLS library's reason, at once: retrying cannot help.
    func testAnUntrustedCertificateFailsWithItsReasonWithoutRetries() throws {
        let net = try NetworkFixture()
        let engine = try net.engine(retries: 3, retryDelay: 2)
        let started = Date()
        let error = play(engine, net.server.secureURL("short.mp3")).waitForFailure(timeout: 10)
        XCTAssertEqual(error?.kind, .network)
        XCTAssertTrue(error?.message.contains("certificate") == true, error?.message ?? "")
        XCTAssertFalse(error?.message.contains("retries") == true, error?.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a retry waited \(2) s")
        XCTAssertTrue(net.server.accessLog.isEmpty, "no request may be sent: \(net.server.accessLog)")
    }

    /// http → 301 → https: followed by our client; the entry belongs to the URL that was queued, and
    /// its second play (one revalidation through the same redirect) downloads no body.
    func testARedirectToHTTPSIsFollowedAndCachedUnderTheQueuedURL() throws {
        let net = try NetworkFixture()
        setenv("SSL_CERT_FILE", net.server.certificate.path, 1)
        let url = net.server.url("to-https/short.mp3")
        let engine = try net.engine()
        net.playToEndCached(engine, url, size: net.size(of: "short.mp3"))
        let log = net.server.accessLog
        XCTAssertEqual(log.map(\.status), [301, 200], "\(log)")
        XCTAssertEqual(log.map(\.scheme), ["http", "https"], "\(log)")
    }

    /// Credentials in the URL go as HTTP Basic; a server refusing them fails the item at once (no retries).
    func testCredentialsInTheURLAreSentAndARefusalIsFinal() throws {
        let net = try NetworkFixture()
        let engine = try net.engine(retries: 3, retryDelay: 2)
        let authorized = "http://quaver:secret@127.0.0.1:\(net.server.port)/private/short.mp3"
        play(engine, authorized).wait(for: .endOfStream(TrackID(1)), timeout: 30)
        engine.stop()
        XCTAssertEqual(net.server.accessLog.map(\.status), [200], "\(net.server.accessLog)")

        // Another URL than the one played: the cache names files by their URL without credentials, so
        // the same URL without them would be served from the copy just made.
        let started = Date()
        let refused = play(engine, net.server.url("private/short.mp3?anonymous"), id: 2).waitForFailure(timeout: 10)
        XCTAssertEqual(refused?.kind, .unreadable)
        XCTAssertTrue(refused?.message.contains("401") == true, refused?.message ?? "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a retry waited 2 s")
        // nginx logs a request once it has ended, which can be just after the refusal reached us.
        _ = eventually { net.server.accessLog.count >= 2 }
        usleep(200_000)  // the point: no retry may come, and one would be logged by now
        XCTAssertEqual(net.server.accessLog.map(\.status), [200, 401], "\(net.server.accessLog)")
    }

    func testARelativeRedirectIsFollowedWithItsRangeRequest() throws {
        let net = try NetworkFixture(slowRate: 24 * 1024)
        let url = net.server.url("moved/slow/long.mp3")
        let engine = try net.engine(sink: "fakesink sync=true")
        play(engine, url).wait(for: .trackStarted(TrackID(1)), timeout: 20)
        XCTAssertTrue(net.runUntilDownloaded(32 << 10, of: url), "the download got past 32 KiB")
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { (net.presentRanges(of: url).first?.1 ?? 0) > 16_384 })
        let resumeAt = net.presentRanges(of: url)[0].1
        let logged = net.server.accessLog.count

        play(engine, url, id: 2).wait(for: .trackStarted(TrackID(2)), timeout: 20)
        engine.stop()
        // The server logs a request when it ends: the first play's cancelled download may be logged after
        // `logged` was counted, so the resumed requests are picked out by their Range.
        let resumed = { net.server.accessLog.dropFirst(logged).filter { $0.range?.hasPrefix("bytes=\(resumeAt)-") == true } }
        XCTAssertTrue(eventually(timeout: 5) { resumed().count >= 2 },
                      "the Range goes along to the new location: \(net.server.accessLog)")
        XCTAssertEqual(resumed().prefix(2).map(\.status), [302, 206], "\(net.server.accessLog)")
    }

    /// A server that speaks HTTP/2 only (ALPN h2, nothing else: our own, on python3-h2) plays and is cached.
    func testAServerSpeakingOnlyHTTP2OverTLSPlays() throws {
        let net = try NetworkFixture()
        let key = net.server.certificate.deletingLastPathComponent().appendingPathComponent("key.pem")
        let server = try TestServer("h2only", arguments: [net.files.path, net.server.certificate.path, key.path])
        setenv("SSL_CERT_FILE", net.server.certificate.path, 1)
        let url = "https://127.0.0.1:\(server.port)/short.mp3"
        net.playToEndCached(try net.engine(), url, size: net.size(of: "short.mp3"))
        XCTAssertEqual(server.requestLog.first, "/short.mp3 -", "\(server.requestLog)")
    }
}
