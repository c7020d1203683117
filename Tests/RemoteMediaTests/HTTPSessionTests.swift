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

/// A Bool shared between threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
