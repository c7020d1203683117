import EventLoop
import Glibc
import XCTest

/// The pings systemd's watchdog waits for (sd_notify's datagram protocol), received on a socket of ours.
final class ServiceWatchdogTests: XCTestCase {
    private var socket: Int32 = -1
    private var path = ""

    override func setUpWithError() throws {
        path = "/tmp/quaver-watchdog-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
    }

    override func tearDown() {
        close(socket)
        unlink(path)
    }

    private func received() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while case let count = recv(socket, &buffer, buffer.count, 0), count > 0 {
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
        return messages
    }

    func testPingsEveryHalfIntervalWhileTheLoopTurns() throws {
        let watchdog = try XCTUnwrap(ServiceWatchdog(environment: ["WATCHDOG_USEC": "100000", "NOTIFY_SOCKET": path,
                                                                   "WATCHDOG_PID": String(getpid())]))
        var pings: [String] = []
        // One at once, then one every 50 ms: three show it repeats (no timing is asserted).
        XCTAssertTrue(EventLoop.main.run(until: { pings += self.received(); return pings.count >= 3 }, timeout: 10))
        XCTAssertEqual(Set(pings), ["WATCHDOG=1"])
        withExtendedLifetime(watchdog) {}
    }

    func testNothingWithoutAWatchdogOrForAnotherProcess() {
        XCTAssertNil(ServiceWatchdog(environment: ["NOTIFY_SOCKET": path]))
        XCTAssertNil(ServiceWatchdog(environment: ["WATCHDOG_USEC": "100000", "NOTIFY_SOCKET": path, "WATCHDOG_PID": "1"]))
        XCTAssertNil(ServiceWatchdog(environment: ["WATCHDOG_USEC": "100000"]))
        XCTAssertNil(ServiceWatchdog(environment: ["WATCHDOG_USEC": "0", "NOTIFY_SOCKET": path]))
        EventLoop.main.run(until: { false }, timeout: 0.1)
        XCTAssertEqual(received(), [])
    }
}
