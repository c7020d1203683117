import Glibc

/// systemd's service watchdog (`WatchdogSec=` in the unit). While the loop turns, this tells the service
/// manager every half interval that the daemon is alive: `WATCHDOG=1` on `$NOTIFY_SOCKET`, the datagram
/// protocol of sd_notify(3). A loop that stops turning (a deadlock inside GStreamer, on which the loop
/// waits) stops the pings; systemd then ends the daemon with SIGABRT, whose backtrace (every thread's
/// stack) goes to the journal, and starts it again on the state saved a second before.
///
/// Without `WATCHDOG_USEC` (started by hand, or by the bus daemon) there is nothing to tell: `init` fails.
public final class ServiceWatchdog {
    private let socket: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    private var timer: LoopSource?

    /// Reads `WATCHDOG_USEC`, `WATCHDOG_PID` (when set, it must name this process) and `NOTIFY_SOCKET`
    /// (a path, or `@name` in the abstract namespace), and starts pinging from the loop.
    public init?(environment: [String: String]) {
        guard let interval = environment["WATCHDOG_USEC"].flatMap(UInt64.init), interval > 0,
              environment["WATCHDOG_PID"].map({ $0 == String(getpid()) }) ?? true,
              let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return nil }
        var bytes = Array(path.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        ping()
        timer = EventLoop.main.schedule(after: Double(interval) / 2_000_000, repeating: true) { [weak self] in
            self?.ping()
        }
    }

    deinit {
        timer?.cancel()
        close(socket)
    }

    /// A lost ping is not retried: the next one comes half an interval later, well within it.
    private func ping() {
        let message = Array("WATCHDOG=1".utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                sendto(socket, message, message.count, Int32(MSG_NOSIGNAL), address, addressLength)
            }
        }
    }
}
