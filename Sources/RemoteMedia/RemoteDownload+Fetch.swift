import FoundationEssentials
import Glibc

/// One GET: the whole file (length unknown yet) or one missing range.
struct FetchRequest {
    let range: Range<UInt64>?
}

/// Why a request failed, sorted for the retry loop and for the owner's error.
struct RemoteFailure: Error {
    let kind: RemoteFailureKind
    let text: String
    /// Retrying cannot help: an untrusted certificate, a redirect loop, a stream where a file was playing.
    var isFinal = false
}

extension RemoteDownload {
    /// Runs one request to its end on `session`. Returns whether bytes arrived; returns early when a seek
    /// or `close` cut it short. Throws `RemoteFailure` for what a retry may fix. Only bytes inside the
    /// range the response announced, and inside the range asked for, reach the cache.
    func fetch(_ request: FetchRequest, on session: HTTPSession) throws -> Bool {
        let proceed = lock.withLock { () -> Bool in
            guard !closed else { return false }
            activeSession = session
            return true
        }
        guard proceed else { return false }
        defer { lock.withLock { activeSession = nil } }
        var offset: UInt64 = 0
        var end: UInt64 = 0
        var received = false
        let interrupted = { [unowned self] in lock.withLock { closed || restartAt != nil || waitingForRoom } }
        do {
            let head = try session.get(url, headers: headers(for: request), isCancelled: interrupted, head: { [unowned self] head in
                guard let body = try accept(head, for: request) else { return false }
                (offset, end) = (body.lowerBound, body.upperBound)
                return true
            }, body: { [unowned self] bytes in
                let count = Int(min(UInt64(bytes.count), end - min(offset, end)))
                let goOn = try lock.withLock { () -> Bool in
                    if closed || restartAt != nil { return false }
                    guard count > 0 else { return true }
                    return try store(UnsafeRawBufferPointer(rebasing: bytes[..<count]), at: offset)
                }
                if goOn { offset += UInt64(count) }
                received = received || (goOn && count > 0)
                return goOn
            })
            guard head != nil, !interrupted() else { return received }
        } catch let failure as HTTPSession.Failure {
            throw RemoteFailure(kind: .network, text: failure.description + (received ? " at byte \(offset)" : ""),
                                isFinal: failure.isFinal)
        }
        if offset < end {
            throw RemoteFailure(kind: .network, text: "connection closed at byte \(offset) of \(end)")
        }
        return received
    }

    private func headers(for request: FetchRequest) -> [String] {
        guard let range = request.range else { return [] }
        var headers = ["Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)"]
        // If-Range: a changed file comes back whole (200) instead of mixing two versions.
        if let validator = lock.withLock({ entry?.sidecar.etag ?? entry?.sidecar.lastModified }) {
            headers.append("If-Range: \(validator)")
        }
        return headers
    }

    /// Checks the response head and sets up the entry; returns the bytes the body holds, or `nil`
    /// when the URL is a stream for the owner to play.
    private func accept(_ head: HTTPResponseHead, for request: FetchRequest) throws -> Range<UInt64>? {
        if let encoding = head.headers["content-encoding"], encoding.lowercased() != "identity" {
            // Not asked for (no Accept-Encoding is sent): the body is not the file's bytes.
            throw RemoteFailure(kind: .network, text: "unrequested Content-Encoding \(encoding)", isFinal: true)
        }
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
            let length = head.contentLength!
            lock.withLock {
                entry?.reset(length: length, etag: head.headers["etag"], lastModified: head.headers["last-modified"])
            }
            announce(length: length)
            return 0..<length
        case 206:
            return try acceptPart(head, for: request)
        case 401, 403:  // credentials missing or refused: asking again cannot help
            throw RemoteFailure(kind: .unreadable, text: "HTTP \(head.status) \(head.reason)", isFinal: true)
        default:
            let kind: RemoteFailureKind = head.status == 404 || head.status == 410 ? .notFound : .network
            throw RemoteFailure(kind: kind, text: "HTTP \(head.status) \(head.reason)")
        }
    }

    /// A 206 must hold the bytes asked for, of a file of the length already known.
    private func acceptPart(_ head: HTTPResponseHead, for request: FetchRequest) throws -> Range<UInt64> {
        guard let range = request.range, let part = head.contentRange else {
            throw RemoteFailure(kind: .network, text: "HTTP 206 without a usable Content-Range")
        }
        let known = lock.withLock { entry?.length }
        guard part.start == range.lowerBound, known == nil || known == part.total else {
            throw RemoteFailure(kind: .network, text: "HTTP 206 for other bytes than asked "
                                + "(Content-Range: \(head.headers["content-range"] ?? ""), asked from \(range.lowerBound))")
        }
        announce(length: part.total)
        return range
    }

    private func announce(length: UInt64) {
        guard !readySent else { return }
        readySent = true
        report(self, .ready(size: length))
    }

    /// Writes downloaded bytes and serves a waiting read (under lock); false, nothing written, when the cache
    /// has no room for them. The sidecar is saved every MiB.
    private func store(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws -> Bool {
        guard let entry, try reserveRoom(for: bytes.count) else { return false }
        try entry.write(bytes, at: offset)
        downloadOffset = offset + UInt64(bytes.count)
        bytesSinceSave += bytes.count
        if bytesSinceSave >= 1 << 20 || entry.isComplete {
            bytesSinceSave = 0
            entry.save()
        }
        noteStored(bytes.count, complete: entry.isComplete)
        if entry.isComplete { report(self, .complete) }
        serveWanted()
        updateBuffering()
        return true
    }

    /// Shoutcast/Icecast answers, bodies without a length, and playlists are streams, never cached.
    static func isLive(_ head: HTTPResponseHead) -> Bool {
        let type = head.headers["content-type"]?.lowercased() ?? ""
        return head.isICY || head.contentLength == nil || head.headers["transfer-encoding"] != nil
            || head.headers.keys.contains { $0.hasPrefix("icy-") }
            || ["mpegurl", "scpls", "x-mpegurl"].contains { type.contains($0) }
    }

    /// A complete entry plays from disk at once; meanwhile one conditional request checks it. 304 (or no
    /// network) keeps it; 200 means a newer version, fetched on the next play (the body is not read).
    func revalidate(_ entry: CacheEntry, on session: HTTPSession) {
        var headers: [String] = []
        if let etag = entry.sidecar.etag { headers.append("If-None-Match: \(etag)") }
        if let modified = entry.sidecar.lastModified { headers.append("If-Modified-Since: \(modified)") }
        guard !headers.isEmpty else { return }
        let head = try? session.get(url, headers: headers, head: { _ in false })
        if head?.status == 200 { lock.withLock { discardOnClose = true } }
    }
}
