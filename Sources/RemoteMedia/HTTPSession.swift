import CCurl
import Foundation
import Glibc
import PublicText

/// GET requests on libcurl, run on the caller's thread, one at a time. A session keeps its connections
/// open between requests (HTTP keep-alive, HTTP/2 streams), so the Range requests of one download reuse
/// them. libcurl does the protocol work: redirects (http and https only), TLS against the system's
/// trust store, Basic and Digest credentials from the URL (`URLLogin`), proxies, HTTP/2 where the server offers it,
/// and Happy Eyeballs between IPv6 and IPv4.
///
/// A request runs on a multi handle polled at most `pollMilliseconds` at a time: `wake()` from another
/// thread (`curl_multi_wakeup`) or the request's `isCancelled` taking effect ends it within that time,
/// during a name lookup or a connect as well.
final class HTTPSession {
    struct Options: Sendable {
        /// Seconds to connect (TCP and TLS handshake) and, once connected, the longest time without a
        /// byte before the request fails.
        var timeout: Double
        /// `scheme://host:port` of a proxy for every request; `nil` leaves it to `http_proxy`,
        /// `https_proxy`, `all_proxy` and `no_proxy`.
        var proxy: String?
    }

    /// Why a request failed. `isFinal` for what retrying cannot change (an untrusted certificate,
    /// too many redirects, a redirect to another scheme, garbage instead of HTTP).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        let isFinal: Bool
    }

    /// Redirects followed before giving up (browsers allow about 20; music hosts use one or two).
    static let maximumRedirects = 5
    /// More than this in one response head is not a media server talking.
    static let maximumHeadBytes = 64 * 1024
    static let pollMilliseconds: Int32 = 50

    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let options: Options
    /// Whether an earlier request got an answer, so libcurl may hold a connection to reuse.
    private var answeredBefore = false
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Shoutcast's `ICY 200 OK` taken as an HTTP/1.0 200 (CURLOPT_HTTP200ALIASES; libcurl keeps the
    /// pointer, so the list lives as long as the session).
    private let icyStatus: UnsafeMutablePointer<curl_slist>?

    /// libcurl loaded (on the first session, not at start-up: see CCurl.h) and `curl_global_init` run, once.
    static let libraryReady = quaver_curl_load() == 1

    init(options: Options) throws {
        guard Self.libraryReady else {
            throw Failure(description: String(cString: quaver_curl_load_error()), isFinal: true)
        }
        guard let easy = quaver_curl_easy_init() else { throw Failure(description: "libcurl cannot start", isFinal: true) }
        guard let multi = quaver_curl_multi_init() else {
            quaver_curl_easy_cleanup(easy)
            throw Failure(description: "libcurl cannot start", isFinal: true)
        }
        self.easy = easy
        self.multi = multi
        self.options = options
        icyStatus = quaver_curl_slist_append(nil, "ICY 200 OK")
    }

    deinit {
        quaver_curl_multi_cleanup(multi)
        quaver_curl_easy_cleanup(easy)
        quaver_curl_slist_free_all(icyStatus)
        errorText.deallocate()
    }

    /// Ends a running request soon (any thread).
    func wake() { quaver_curl_multi_wakeup(multi) }

    /// GETs `url` with extra `headers` (`"Name: value"`). `head` sees the final response head before any
    /// body byte (return false to end there), `body` each piece of the body (false ends the request).
    /// `isCancelled` is asked between polls. Returns the head, `nil` when cancelled before it came; throws
    /// `Failure` (or what a closure threw).
    /// With `posting`, the request is a POST of those bytes instead of a GET.
    @discardableResult
    func get(_ url: String, headers: [String] = [], posting: [UInt8]? = nil, isCancelled: @escaping () -> Bool = { false },
             head: @escaping (HTTPResponseHead) throws -> Bool = { _ in true },
             body: @escaping (UnsafeRawBufferPointer) throws -> Bool = { _ in true }) throws -> HTTPResponseHead? {
        var digest = false
        var fresh = false
        while true {
            let transfer = Transfer(isCancelled: isCancelled, head: head, body: body,
                                    offersCredentials: !digest && URLLogin(url).user != nil)
            do {
                try perform(url, headers: headers, posting: posting, digest: digest, fresh: fresh, transfer)
            } catch where !fresh && transfer.delivered == nil && transfer.reusedConnection {
                fresh = true  // see `Transfer.reusedConnection`
                continue
            }
            if transfer.delivered == nil, !transfer.stoppedOnPurpose, !transfer.wantsDigest { _ = try transfer.deliverHead() }
            guard transfer.wantsDigest else { return transfer.delivered }
            digest = true
        }
    }

    private func perform(_ url: String, headers: [String], posting: [UInt8]?, digest: Bool, fresh: Bool, _ transfer: Transfer) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = quaver_curl_slist_append(list, header) }
        defer { quaver_curl_slist_free_all(list) }
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        configure(url, headers: list, digest: digest, context: context.toOpaque())
        if let posting { post(posting) }
        if fresh { quaver_curl_set_long(easy, CURLOPT_FRESH_CONNECT, 1) }
        errorText[0] = 0
        quaver_curl_multi_add_handle(multi, easy)
        let result = run(transfer)
        transfer.reusedConnection = answeredBefore && quaver_curl_get_long(easy, CURLINFO_NUM_CONNECTS) == 0
        answeredBefore = answeredBefore || transfer.delivered != nil
        quaver_curl_multi_remove_handle(multi, easy)
        if let thrown = transfer.thrown { throw thrown }
        if transfer.wantsDigest || transfer.stoppedOnPurpose { return }
        if let result, result != CURLE_OK { throw failure(result) }
    }

    /// Drives the transfer until it ends, is cancelled, goes `timeout` seconds without a byte, or its
    /// head is overdue; libcurl's result, `nil` when we ended it. (libcurl's own low-speed check averages
    /// over several seconds: a burst then a stall would take five times as long to notice.)
    private func run(_ transfer: Transfer) -> CURLcode? {
        let headDeadline = Date().addingTimeInterval(options.timeout * 2)
        var running: Int32 = 1
        while true {
            quaver_curl_multi_perform(multi, &running)
            if running == 0 { return finishedResult() }
            if transfer.isCancelled() {
                transfer.stoppedOnPurpose = true
                return nil
            }
            let now = Date()
            if now.timeIntervalSince(transfer.lastByte) > options.timeout {
                transfer.thrown = Failure(description: "timed out: nothing received for \(options.timeout) s", isFinal: false)
                return nil
            }
            if transfer.delivered == nil, !transfer.headComplete, now > headDeadline {
                transfer.thrown = Failure(description: "no complete response head within \(options.timeout * 2) s",
                                          isFinal: false)
                return nil
            }
            quaver_curl_multi_poll(multi, Self.pollMilliseconds)
        }
    }

    private func finishedResult() -> CURLcode {
        var left: Int32 = 0
        while let message = quaver_curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_OK
    }

    private func configure(_ url: String, headers: UnsafeMutablePointer<curl_slist>?, digest: Bool,
                           context: UnsafeMutableRawPointer) {
        quaver_curl_easy_reset(easy)  // options only: connections and the DNS cache stay
        // The login goes in its own options, split off by the reading that masking uses: libcurl never
        // parses a user-info itself, so it sends exactly what is masked everywhere else (a password with a
        // quote, a space or a raw `#` works too).
        let login = URLLogin(url)
        setString(CURLOPT_URL, login.address)
        if let user = login.user { setString(CURLOPT_USERNAME, user) }
        if let password = login.password { setString(CURLOPT_PASSWORD, password) }
        setString(CURLOPT_USERAGENT, "Quaver")
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        quaver_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        quaver_curl_set_long(easy, CURLOPT_MAXREDIRS, Self.maximumRedirects)
        quaver_curl_set_long(easy, CURLOPT_HTTPAUTH, digest ? quaver_curl_auth_digest() : quaver_curl_auth_basic())
        quaver_curl_set_long(easy, CURLOPT_HTTP_VERSION, quaver_curl_http2_over_tls())
        quaver_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        // Body pieces of up to 64 KiB (libcurl's default is 16): a download stores, and a reader's seek
        // just past what arrived waits for, bigger steps (RemoteDownload.nearAhead).
        quaver_curl_set_long(easy, CURLOPT_BUFFERSIZE, 64 * 1024)
        quaver_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(options.timeout * 1000))
        // OpenSSL reads SSL_CERT_FILE / SSL_CERT_DIR only for its default paths; libcurl passes its own
        // (Debian's bundle) unless told: honour them, read at each request as before.
        if let file = ProcessInfo.processInfo.environment["SSL_CERT_FILE"] { setString(CURLOPT_CAINFO, file) }
        if let folder = ProcessInfo.processInfo.environment["SSL_CERT_DIR"] { setString(CURLOPT_CAPATH, folder) }
        if let proxy = options.proxy, !proxy.isEmpty { setString(CURLOPT_PROXY, proxy) }
        quaver_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headers)
        quaver_curl_set_pointer(easy, CURLOPT_HTTP200ALIASES, icyStatus)
        quaver_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        quaver_curl_set_write_function(easy, CURLOPT_HEADERFUNCTION, receiveHeaderLine)
        quaver_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        quaver_curl_set_write_function(easy, CURLOPT_WRITEFUNCTION, receiveBody)
        quaver_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
    }

    /// The request becomes a POST of `bytes` (CURLOPT_COPYPOSTFIELDS: libcurl copies them, as many as
    /// CURLOPT_POSTFIELDSIZE says, which must be set first).
    private func post(_ bytes: [UInt8]) {
        quaver_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, bytes.count)
        _ = bytes.withUnsafeBytes { quaver_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
    }

    private func setString(_ option: CURLoption, _ value: String) {
        _ = value.withCString { quaver_curl_set_pointer(easy, option, $0) }  // libcurl copies strings
    }

    private func failure(_ code: CURLcode) -> Failure {
        let detail = String(cString: errorText)
        var text = detail.isEmpty ? String(cString: quaver_curl_easy_strerror(code)) : detail
        let osError = Int32(quaver_curl_get_long(easy, CURLINFO_OS_ERRNO))
        if code == CURLE_COULDNT_CONNECT, osError != 0 { text = "cannot connect: \(String(cString: strerror(osError)))" }
        if code == CURLE_OPERATION_TIMEDOUT { text = "timed out (\(text))" }
        let final: [CURLcode] = [CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM,
                                 CURLE_SSL_CACERT_BADFILE, CURLE_TOO_MANY_REDIRECTS, CURLE_UNSUPPORTED_PROTOCOL,
                                 CURLE_URL_MALFORMAT, CURLE_WEIRD_SERVER_REPLY]
        return Failure(description: text, isFinal: final.contains(code))
    }
}

/// One request's state, shared with libcurl's callbacks (which run on the session's thread, inside
/// `curl_multi_perform`).
private final class Transfer {
    let isCancelled: () -> Bool
    let head: (HTTPResponseHead) throws -> Bool
    let body: (UnsafeRawBufferPointer) throws -> Bool
    /// Whether a 401 asking for Digest may be answered by asking again with Digest.
    let offersCredentials: Bool
    var lines: [String] = []
    var headBytes = 0
    /// When the last byte of the head or body came (or the request began).
    var lastByte = Date()
    var headComplete = false
    var delivered: HTTPResponseHead?
    var thrown: Error?
    var stoppedOnPurpose = false
    var wantsDigest = false
    /// The request went over a connection kept from an earlier one. One that fails before its head is
    /// tried once more on a fresh connection: the server may have closed the old one meanwhile, or left
    /// bytes on it (a body longer than its Content-Length, which libcurl does not notice before reuse), and
    /// the next response would be read from those.
    var reusedConnection = false

    init(isCancelled: @escaping () -> Bool, head: @escaping (HTTPResponseHead) throws -> Bool,
         body: @escaping (UnsafeRawBufferPointer) throws -> Bool, offersCredentials: Bool) {
        self.isCancelled = isCancelled
        self.head = head
        self.body = body
        self.offersCredentials = offersCredentials
    }

    /// One header line (libcurl passes whole lines); a status line starts the head of another response
    /// (after a redirect or a 100 Continue). False aborts the transfer.
    func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastByte = Date()
        headBytes += bytes.count
        guard headBytes <= HTTPSession.maximumHeadBytes else {
            thrown = HTTPSession.Failure(description: "response head larger than \(HTTPSession.maximumHeadBytes) bytes",
                                         isFinal: true)
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
            lines = [line]
            headBytes = bytes.count
            headComplete = false
        } else if line.isEmpty {
            headComplete = true
        } else {
            lines.append(line)
        }
        return true
    }

    func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastByte = Date()
        do {
            if delivered == nil {
                guard try deliverHead() else { return false }
            }
            if try body(bytes) { return true }
            stoppedOnPurpose = true
        } catch {
            thrown = error
        }
        return false
    }

    /// Hands the last head received to `head`, or asks for a Digest retry; false when the request should end.
    func deliverHead() throws -> Bool {
        guard let parsed = HTTPResponseHead(lines: lines) else {
            throw HTTPSession.Failure(description: "malformed HTTP response", isFinal: true)
        }
        if parsed.status == 401, offersCredentials,
           parsed.headers["www-authenticate"]?.lowercased().hasPrefix("digest") == true {
            wantsDigest = true
            return false
        }
        delivered = parsed
        guard try head(parsed) else {
            stoppedOnPurpose = true
            return false
        }
        return true
    }
}

/// libcurl's CURLOPT_HEADERFUNCTION: `data` is the transfer, held retained by `perform`.
private func receiveHeaderLine(_ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                               _ data: UnsafeMutableRawPointer?) -> Int {
    let transfer = Unmanaged<Transfer>.fromOpaque(data!).takeUnretainedValue()
    return transfer.headerLine(UnsafeRawBufferPointer(start: bytes, count: size * count)) ? size * count : 0
}

/// libcurl's CURLOPT_WRITEFUNCTION; returning less than given aborts with CURLE_WRITE_ERROR.
private func receiveBody(_ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                         _ data: UnsafeMutableRawPointer?) -> Int {
    let transfer = Unmanaged<Transfer>.fromOpaque(data!).takeUnretainedValue()
    return transfer.bodyBytes(UnsafeRawBufferPointer(start: bytes, count: size * count)) ? size * count : 0
}
