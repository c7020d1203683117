import CGLib
import Glibc
import Synchronization
import XCTest
@testable import EventLoop

final class GLibMessagesTests: XCTestCase {
    private final class Inbox: Sendable {
        let messages = Mutex<[(GLibMessages.Severity, String, String)]>([])
    }

    private let inbox = Inbox()

    override func setUp() {
        super.setUp()
        GLibMessages.route { [inbox] severity, domain, message in
            inbox.messages.withLock { $0.append((severity, domain, message)) }
        }
    }

    /// A real library message: GObject's own precondition check, the kind a misused plugin logs.
    func testALibraryCriticalReachesTheHandlerInsteadOfStderr() throws {
        let written = try capturingStandardError { g_object_unref(nil) }
        XCTAssertEqual(written, "", "GLib still wrote to stderr")
        let messages = inbox.messages.withLock { $0 }
        XCTAssertEqual(messages.count, 1)
        XCTAssertEqual(messages.first?.0, .critical)
        XCTAssertEqual(messages.first?.1, "GLib-GObject")
        XCTAssertTrue(messages.first?.2.contains("G_IS_OBJECT") == true, "\(messages)")
    }

    /// Structured messages may carry fields with a length instead of a NUL: only those bytes are taken.
    func testStructuredWarningKeepsItsDomainAndExactText() {
        let domainKey = strdup("GLIB_DOMAIN"), messageKey = strdup("MESSAGE")  // a field's key must outlive the call
        defer { free(domainKey); free(messageKey) }
        let domain = Array("GStreamer".utf8CString)
        let text = Array("could not open http://me:secret@example.test/a.mp3TRAILING".utf8)
        domain.withUnsafeBufferPointer { domainBytes in
            text.withUnsafeBufferPointer { textBytes in
                var fields = [
                    GLogField(key: domainKey, value: domainBytes.baseAddress, length: -1),
                    GLogField(key: messageKey, value: textBytes.baseAddress, length: textBytes.count - "TRAILING".utf8.count),
                ]
                g_log_structured_array(G_LOG_LEVEL_WARNING, &fields, gsize(fields.count))
            }
        }
        let messages = inbox.messages.withLock { $0 }
        XCTAssertEqual(messages.count, 1)
        XCTAssertEqual(messages.first?.0, .warning)
        XCTAssertEqual(messages.first?.1, "GStreamer")
        XCTAssertEqual(messages.first?.2, "could not open http://me:secret@example.test/a.mp3")
    }

    /// What `body` writes to file descriptor 2.
    private func capturingStandardError(_ body: () -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let saved = dup(STDERR_FILENO)
        dup2(ends[1], STDERR_FILENO)
        body()
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(ends[0], &bytes, bytes.count)
        close(ends[0])
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}
