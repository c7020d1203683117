import EventLoop
import FoundationEssentials
import Glibc

/// Newline-delimited JSON on stdin and stdout: what snapserver and its stream plugins exchange.
final class JSONLines {
    /// A line longer than this is dropped (snapserver's requests are a few hundred bytes).
    static let maximumLineBytes = 1 << 20
    private var pending: [UInt8] = []
    private var discarding = false
    private var watch: LoopSource?

    /// Calls `received` with each complete line's JSON object (or nil when it is not one), and `closed` once
    /// stdin ends: snapserver stopped or dropped the plugin.
    func start(received: @escaping ([String: JSONValue]?) -> Void, closed: @escaping () -> Void) {
        watch = EventLoop.main.watch(fd: 0, conditions: [.input, .hangUp, .error]) { [unowned self] _ in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
            guard count > 0 else { closed(); return false }
            split(buffer[0..<count], received)
            return true
        }
    }

    private func split(_ bytes: ArraySlice<UInt8>, _ received: ([String: JSONValue]?) -> Void) {
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                if pending.count < Self.maximumLineBytes { pending.append(byte) } else { discarding = true }
                continue
            }
            defer { pending.removeAll(keepingCapacity: true); discarding = false }
            if discarding { received(nil); continue }
            if pending.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            received((try? JSONDecoder().decode(JSONValue.self, from: Data(pending)))?.object)
        }
    }

    /// Writes one JSON object and a newline in one `write`, so lines never interleave.
    func send(_ object: [String: JSONValue]) {
        guard var data = try? JSONEncoder().encode(object) else { return }
        data.append(UInt8(ascii: "\n"))
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }

    func notify(_ method: String, _ params: [String: JSONValue]? = nil) {
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = .object(params) }
        send(message)
    }

    enum Severity: String { case info = "Info", notice = "Notice", warning = "Warning", error = "Error" }

    /// `Plugin.Stream.Log`: snapserver writes it to its own log.
    func log(_ severity: Severity, _ message: String) {
        notify("Plugin.Stream.Log", ["severity": .string(severity.rawValue), "message": .string(message)])
    }
}
