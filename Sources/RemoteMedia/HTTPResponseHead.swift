import FoundationEssentials
import PublicText

/// The status line and headers of the final response (after redirects).
public struct HTTPResponseHead: Sendable {
    public let status: Int
    public let reason: String
    /// Shoutcast answers `ICY 200 OK` instead of `HTTP/1.x`.
    public let isICY: Bool
    /// Lower-cased names; a repeated header keeps its last value.
    public let headers: [String: String]

    public var contentLength: UInt64? { headers["content-length"].flatMap { UInt64($0) } }

    /// The first byte and total of `Content-Range: bytes 100-199/5000`.
    public var contentRange: (start: UInt64, total: UInt64)? {
        guard let value = headers["content-range"], value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let total = UInt64(parts[1]),
              let start = parts[0].split(separator: "-").first.flatMap({ UInt64($0) }) else { return nil }
        return (start, total)
    }

    /// Parses the header lines of one response, status line first (`HTTP/1.1 200 OK`, `HTTP/2 206`, `ICY 200 OK`).
    init?(lines: [String]) {
        guard let first = lines.first else { return nil }
        let status = first.split(separator: " ", maxSplits: 2)
        guard status.count >= 2, let code = Int(status[1]) else { return nil }
        self.status = code
        reason = status.count > 2 ? String(status[2]) : ""
        isICY = status[0] == "ICY"
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingWhitespace()
        }
        self.headers = headers
    }
}
