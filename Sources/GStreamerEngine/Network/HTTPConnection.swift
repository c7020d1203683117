import Foundation
import Glibc

/// One HTTP/1.1 GET over TCP, or TLS for https (`Connection: close`), read with blocking calls on the
/// caller's thread. Small on purpose: the cache needs Range and conditional requests and the response
/// head before the body; chunked bodies (live streams) are left to playbin's own source.
/// `cancel()` from another thread wakes a blocked read (`shutdown`).
final class HTTPConnection {
    struct Head {
        let status: Int
        let reason: String
        /// Shoutcast answers `ICY 200 OK` instead of `HTTP/1.x`.
        let isICY: Bool
        /// Lower-cased names.
        let headers: [String: String]

        var contentLength: UInt64? { headers["content-length"].flatMap { UInt64($0) } }
        /// The total from `Content-Range: bytes 100-199/5000`.
        var totalFromContentRange: UInt64? {
            headers["content-range"].flatMap { $0.split(separator: "/").last }.flatMap { UInt64($0) }
        }
        var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && headers["location"] != nil }
    }

    enum Failure: Error, CustomStringConvertible {
        case badURL, resolve(String), connect(String), timeout, closed, malformed, tls(String), redirects
        var description: String {
            switch self {
            case .badURL: return "not an http:// or https:// URL"
            case .resolve(let text): return "cannot resolve host: \(text)"
            case .connect(let text): return "cannot connect: \(text)"
            case .timeout: return "timed out"
            case .closed: return "connection closed"
            case .malformed: return "malformed HTTP response"
            case .tls(let text): return "TLS: \(text)"
            case .redirects: return "too many redirects"
            }
        }
    }

    /// Redirects followed before giving up (browsers allow about 20; music hosts use one or two).
    static let maximumRedirects = 5

    private let fd: Int32
    private let tls: TLSSession?
    private var pending: [UInt8] = []
    private(set) var head: Head!

    /// GETs `url`, following redirects (the headers go along to each hop), and returns the connection
    /// whose response head is not a redirect.
    static func open(url: String, headers: [(String, String)], timeout: Double) throws -> HTTPConnection {
        var target = url
        for _ in 0...maximumRedirects {
            let connection = try HTTPConnection(url: target, headers: headers, timeout: timeout)
            guard connection.head.isRedirect, let location = connection.head.headers["location"],
                  let next = URL(string: location, relativeTo: URL(string: target))?.absoluteString else {
                return connection
            }
            connection.cancel()
            target = next
        }
        throw Failure.redirects
    }

    /// Connects within `timeout` seconds, sends the request, and reads the response head.
    private init(url: String, headers: [(String, String)], timeout: Double) throws {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host else {
            throw Failure.badURL
        }
        let port = parts.port ?? (scheme == "https" ? 443 : 80)
        fd = try Self.connect(host: host, port: port, timeout: timeout)
        do {
            Self.setReadTimeout(fd, timeout)
            tls = scheme == "https" ? try TLSSession(socket: fd, host: host) : nil
            let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
            let target = path + (parts.percentEncodedQuery.map { "?\($0)" } ?? "")
            let hostName = host.contains(":") ? "[\(host)]" : host  // an IPv6 address (RFC 7230 §5.4)
            let hostHeader = parts.port == nil ? hostName : "\(hostName):\(port)"
            var request = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: Quaver\r\nConnection: close\r\n"
            // Credentials in the URL (http://user:password@host/…), as home media servers use them; a
            // redirect to a URL without them sends none.
            if let user = parts.user {
                let credentials = Data("\(user):\(parts.password ?? "")".utf8).base64EncodedString()
                request += "Authorization: Basic \(credentials)\r\n"
            }
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            try send(Array((request + "\r\n").utf8))
            head = try readHead()
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Wakes any blocked read; later reads return 0. Safe from any thread.
    func cancel() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Reads body bytes into `buffer`; 0 at the end of the body. Throws on timeouts and errors.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !pending.isEmpty {
            let count = min(buffer.count, pending.count)
            buffer.copyBytes(from: pending[..<count])
            pending.removeFirst(count)
            return count
        }
        return try receive(into: buffer)
    }

    private func receive(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let tls { return try tls.read(into: buffer) }
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.connect(String(cString: strerror(errno))) }
        return count
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            sent += try bytes[sent...].withUnsafeBytes { part -> Int in
                if let tls { return try tls.write(part) }
                let count = Glibc.send(fd, part.baseAddress, part.count, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure.connect(String(cString: strerror(errno))) }
                return count
            }
        }
    }

    private func readHead() throws -> Head {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.headEnd(bytes) {
                pending = Array(bytes[end...])
                return try Self.parseHead(bytes[..<end])
            }
            guard bytes.count < 64 * 1024 else { throw Failure.malformed }
            let count = try chunk.withUnsafeMutableBytes { try receive(into: $0) }
            if count == 0 { throw Failure.closed }
            bytes += chunk[..<count]
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index - 3] == 13 && bytes[index - 2] == 10
            && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws -> Head {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ", maxSplits: 2)
        guard status.count >= 2, let code = Int(status[1]) else { throw Failure.malformed }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Head(status: code, reason: status.count > 2 ? String(status[2]) : "", isICY: status[0] == "ICY",
                    headers: headers)
    }

    private static func setReadTimeout(_ fd: Int32, _ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// `getaddrinfo`, then a non-blocking `connect` bounded by `poll`, trying each address.
    private static func connect(host: String, port: Int, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else { throw Failure.resolve(String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var lastError = Failure.connect("no address")
        var node: UnsafeMutablePointer<addrinfo>? = list
        while let address = node {
            node = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if let error = connect(fd, address.pointee, timeout: timeout) {
                close(fd)
                lastError = error
                continue
            }
            return fd
        }
        throw lastError
    }

    private static func connect(_ fd: Int32, _ address: addrinfo, timeout: Double) -> Failure? {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return .connect(String(cString: strerror(errno))) }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return .timeout }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : .connect(String(cString: strerror(error)))
    }
}
