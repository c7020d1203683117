import Foundation
@testable import RemoteMedia
import TestSupport
import XCTest

final class HTTPSessionTests: XCTestCase {
    /// A request waiting for a TLS handshake that never comes ends within 100 ms of being cancelled.
    func testCancellingDuringAConnectTakesEffectWithinATenthOfASecond() throws {
        let silent = try TestServer("silent")
        let session = try HTTPSession(options: .init(timeout: 30, proxy: nil))
        let cancelled = LockedFlag()
        let returned = LockedFlag()
        var cancelledAt = Date.distantFuture
        let thread = Thread {
            _ = try? session.get("https://127.0.0.1:\(silent.port)/x", isCancelled: { cancelled.value })
            returned.value = true
        }
        thread.start()
        usleep(500_000)
        XCTAssertFalse(returned.value, "the request ended before it was cancelled")
        cancelledAt = Date()
        cancelled.value = true
        session.wake()
        XCTAssertTrue(eventually(timeout: 5) { returned.value })
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 0.1)
    }

    /// A 401 that asks for Digest is answered with Digest credentials from the URL.
    func testDigestIsOfferedWhenTheServerAsksForIt() throws {
        let server = try TestServer("hostile")
        let session = try HTTPSession(options: .init(timeout: 5, proxy: nil))
        let refused = try session.get(server.url("digest"))
        XCTAssertEqual(refused?.status, 401)
        let head = try session.get("http://quaver:secret@127.0.0.1:\(server.port)/digest")
        XCTAssertEqual(head?.status, 200)
    }
}

extension HTTPSessionTests {
    /// A server that sends more body than its Content-Length on a kept-alive connection: the next request,
    /// sent on that connection, fails there and is tried once more on a fresh one, which gets the file.
    func testABodyLongerThanItsLengthDoesNotPoisonTheNextRequest() throws {
        let server = try TestServer("hostile")
        let session = try HTTPSession(options: .init(timeout: 5, proxy: nil))
        var first = Data()
        XCTAssertEqual(try session.get(server.url("excess"), body: { first.append(contentsOf: $0); return true })?.status, 200)
        XCTAssertEqual(first, Data("0123456789".utf8))
        var second = Data()
        let head = try session.get(server.url("good"), body: { second.append(contentsOf: $0); return true })
        XCTAssertEqual(head?.status, 200)
        XCTAssertEqual(second.count, TestServer.fileLength)
    }
}

/// A Bool shared between threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
