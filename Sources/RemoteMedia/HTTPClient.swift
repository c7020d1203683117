/// One answer of an `HTTPClient` request, read whole.
public struct HTTPAnswer: Sendable {
    public let status: Int
    /// Header names in lowercase.
    public let headers: [String: String]
    public let body: [UInt8]
}

/// Small requests for other modules (a scrobbler's POSTs) on the same libcurl session as the media downloads: the
/// same proxies, trust store and time bounds. Blocking: call it from a thread of your own, never from the loop.
public final class HTTPClient {
    /// Answers larger than this are cut: an API answer is a few hundred bytes, a hostile server could send gigabytes.
    public static let largestBody = 1 << 20
    private let session: HTTPSession

    /// - Parameter timeoutSeconds: to connect, and then the longest wait for a byte (twice that for the answer's head).
    public init(timeoutSeconds: Double, proxy: String? = nil) throws {
        session = try HTTPSession(options: .init(timeout: timeoutSeconds, proxy: proxy))
    }

    /// POSTs `body` with `headers` (`"Name: value"`); throws with the reason when no answer came.
    public func post(_ url: String, headers: [String], body: [UInt8]) throws -> HTTPAnswer {
        var received: [UInt8] = []
        let head = try session.get(url, headers: headers, posting: body, body: { piece in
            received += piece.prefix(max(0, Self.largestBody - received.count))
            return received.count < Self.largestBody
        })
        guard let head else { throw HTTPClientError(description: "the request was cancelled") }
        return HTTPAnswer(status: head.status, headers: head.headers, body: received)
    }
}

public struct HTTPClientError: Error, CustomStringConvertible {
    public let description: String
}
