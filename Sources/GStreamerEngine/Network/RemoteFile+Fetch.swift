import Foundation
import PlayerCore

/// One GET: the whole file (length unknown yet) or one missing range.
struct FetchRequest {
    let range: Range<UInt64>?
}

/// Why a request failed, sorted for the retry loop and for `EngineError`.
struct RemoteFailure: Error {
    let kind: EngineError.Kind
    let text: String
    /// Bytes arrived before it failed: the connection worked, the count of failures starts over.
    var receivedBytes = false
    /// The file turned out to be a stream after playing began: retrying cannot help.
    var isFinal = false
}

extension RemoteFile {
    /// Runs one request to its end. Returns whether bytes arrived; returns early when a seek or
    /// `close` cut it short. Throws `RemoteFailure` for what a retry may fix.
    func fetch(_ request: FetchRequest) throws -> Bool {
        let connection = try open(request)
        let proceed = lock.withLock { () -> Bool in
            guard !closed else { return false }
            self.connection = connection
            return true
        }
        guard proceed else { return false }
        defer { lock.withLock { self.connection = nil } }
        guard let body = try accept(connection.head, for: request) else { return false }
        var offset = body.lowerBound
        let end = body.upperBound
        var received = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while offset < end {
            let count: Int
            do {
                count = try connection.read(into: UnsafeMutableRawBufferPointer(
                    rebasing: buffer[..<Int(min(UInt64(buffer.count), end - offset))]))
            } catch {
                throw RemoteFailure(kind: .network, text: "\(error) at byte \(offset)", receivedBytes: received)
            }
            let goOn = try lock.withLock { () -> Bool in
                if closed || restartAt != nil { return false }
                guard count > 0 else {
                    throw RemoteFailure(kind: .network, text: "connection closed at byte \(offset) of \(end)",
                                        receivedBytes: received)
                }
                try store(UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: offset)
                return true
            }
            guard goOn else { return received }
            offset += UInt64(count)
            received = true
        }
        return received
    }

    private func open(_ request: FetchRequest) throws -> HTTPConnection {
        var headers: [(String, String)] = []
        if let range = request.range {
            headers.append(("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)"))
            // If-Range: a changed file comes back whole (200) instead of mixing two versions.
            if let validator = lock.withLock({ entry?.sidecar.etag ?? entry?.sidecar.lastModified }) {
                headers.append(("If-Range", validator))
            }
        }
        do {
            return try HTTPConnection.open(url: url, headers: headers, timeout: options.connectTimeout)
        } catch let failure as HTTPConnection.Failure {
            // An untrusted certificate or a redirect loop stays so: retrying only delays the failure.
            switch failure {
            case .tls, .redirects, .badURL: throw RemoteFailure(kind: .network, text: "\(failure)", isFinal: true)
            default: throw RemoteFailure(kind: .network, text: "\(failure)")
            }
        }
    }

    /// Checks the response head and sets up the entry; returns the bytes the body holds, or `nil`
    /// when the URL is a stream handed to playbin.
    private func accept(_ head: HTTPConnection.Head, for request: FetchRequest) throws -> Range<UInt64>? {
        switch head.status {
        case 200 where Self.isLive(head):
            guard !readySent else { throw RemoteFailure(kind: .network, text: "became a live stream", isFinal: true) }
            lock.withLock {
                closed = true
                discardOnClose = true
            }
            report(self, .live)
            return nil
        case 200:
            lock.withLock {
                entry?.reset(length: head.contentLength!, etag: head.headers["etag"],
                             lastModified: head.headers["last-modified"])
            }
            announce(length: head.contentLength!)
            return 0..<head.contentLength!
        case 206:
            guard let range = request.range, let total = head.totalFromContentRange else {
                throw RemoteFailure(kind: .network, text: "HTTP 206 without a usable Content-Range")
            }
            announce(length: total)
            return range
        case 401, 403:  // credentials missing or refused: asking again cannot help
            throw RemoteFailure(kind: .unreadable, text: "HTTP \(head.status) \(head.reason)", isFinal: true)
        default:
            let kind: EngineError.Kind = head.status == 404 || head.status == 410 ? .notFound : .network
            throw RemoteFailure(kind: kind, text: "HTTP \(head.status) \(head.reason)")
        }
    }

    private func announce(length: UInt64) {
        guard !readySent else { return }
        readySent = true
        report(self, .ready(size: length))
    }

    /// Writes downloaded bytes and serves a waiting read (under lock). The sidecar is saved every MiB.
    private func store(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard let entry else { return }
        try entry.write(bytes, at: offset)
        downloadOffset = offset + UInt64(bytes.count)
        bytesSinceSave += bytes.count
        if bytesSinceSave >= 1 << 20 || entry.isComplete {
            bytesSinceSave = 0
            entry.save()
        }
        if entry.isComplete { report(self, .complete) }
        serveWanted()
        updateBuffering()
    }

    /// Shoutcast/Icecast answers, bodies without a length, and playlists are streams, never cached.
    static func isLive(_ head: HTTPConnection.Head) -> Bool {
        let type = head.headers["content-type"]?.lowercased() ?? ""
        return head.isICY || head.contentLength == nil || head.headers["transfer-encoding"] != nil
            || head.headers.keys.contains { $0.hasPrefix("icy-") }
            || ["mpegurl", "scpls", "x-mpegurl"].contains { type.contains($0) }
    }

    /// A complete entry plays from disk at once; meanwhile one conditional request checks it. 304 (or no
    /// network) keeps it; 200 means a newer version, fetched on the next play (the body is not read).
    func revalidate(_ entry: CacheEntry) {
        var headers: [(String, String)] = []
        if let etag = entry.sidecar.etag { headers.append(("If-None-Match", etag)) }
        if let modified = entry.sidecar.lastModified { headers.append(("If-Modified-Since", modified)) }
        guard !headers.isEmpty,
              let connection = try? HTTPConnection.open(url: url, headers: headers, timeout: options.connectTimeout)
        else { return }
        connection.cancel()
        if connection.head.status == 200 { lock.withLock { discardOnClose = true } }
    }
}
