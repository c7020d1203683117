// The one reading of URLs that decides what is a secret: what RemoteMedia sends as a login and what
// everything the daemon publishes or logs masks. Pure Swift, on bytes.
extension PublicText {
    /// Query parameters whose values are masked (names compared without case, after percent-decoding):
    /// signed URLs (S3, CloudFront, Google Cloud), Icecast's `auth`, API keys and tokens.
    public static let secretQueryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth", "auth_token", "authorization",
        "key", "api_key", "apikey", "access_key", "secret", "client_secret", "signature", "sig",
        "password", "passwd", "pass", "pwd", "credential", "session", "sessionid", "policy", "key-pair-id",
    ]
    /// Every query parameter whose name starts with one of these is masked too (`X-Amz-Signature`,
    /// `X-Amz-Credential`, `X-Amz-Security-Token`, `X-Goog-Signature`, …).
    public static let secretQueryPrefixes = ["x-amz-", "x-goog-"]

    /// `url` (one URL, as queued) with its login and secret query values masked, at most `limit` bytes.
    /// A query value runs to the next `&`, `;` or `#`, whatever it holds.
    public static func url(_ url: String, limit: Int = maximumURLUTF8Count) -> String {
        bounded(masked(url, within: .url), limit: limit)
    }

    /// `text` with credentials masked, quoting `urls`: each of them is first replaced by its masked form as a
    /// whole (an error message may quote a URL with a space or a quote in a secret, which the scan of
    /// free text in `from` would cut short), then the rest as `from` does.
    public static func from(_ text: String, quoting urls: [String], limit: Int = maximumUTF8Count) -> String {
        var text = text
        for url in urls where !url.isEmpty && text.contains(url) {
            text = text.replacing(url, with: masked(url, within: .url))
        }
        return from(text, limit: limit)
    }

    /// Every `scheme://…` in `text` (a URL, or a message quoting URLs) with its login replaced by
    /// `credentialsMask`, and the values of secret query parameters too (`token=***`).
    ///
    /// The login is what comes before the last `@` ahead of the first `/` after `scheme://`. libcurl ends
    /// the user-info at the first `/`, `?` or `#` (`URLLogin` splits it off the same way before a fetch), so
    /// this masks all libcurl would send and more: a password typed with a raw `#` or `?`, which libcurl
    /// cannot use and an error message then quotes. The cost: `http://host?from=a@b`, an `@` in a query
    /// with no path before it, is masked too. In free text a query value also ends at white space or a
    /// quote.
    public static func maskingCredentials(in text: String) -> String {
        masked(text, within: .text)
    }

    enum Scan { case url, text }

    static func masked(_ text: String, within scan: Scan) -> String {
        var text = text
        return text.withUTF8 { masked($0, scan) } ?? text
    }

    /// The masked text, or nil when nothing was masked (the common case allocates nothing).
    private static func masked(_ bytes: UnsafeBufferPointer<UInt8>, _ scan: Scan) -> String? {
        var secrets: [Range<Int>] = []
        var queriesScanned = 0
        var next = URLBytes.authorityStart(in: bytes, from: 0)
        while let authority = next {
            let hostStart = URLBytes.hostStart(in: bytes, authority: authority, endingAtAnyOf: [.slash])
            if hostStart > authority { secrets.append(authority..<(hostStart - 1)) }
            // A URL quoted in a query already scanned has its parameters among that query's: each byte is
            // scanned for parameters once (thousands of `x://` in one query would otherwise cost n²).
            if hostStart >= queriesScanned {
                queriesScanned = secretQueryValues(in: bytes, from: hostStart, scan, into: &secrets)
            }
            // From the host on, not from the URL's end: a query may quote another URL (`?from=http://u:p@h/`).
            next = URLBytes.authorityStart(in: bytes, from: hostStart)
        }
        guard !secrets.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        for secret in secrets.sorted(by: { $0.lowerBound < $1.lowerBound }) where secret.upperBound > copied {
            out += bytes[copied..<max(copied, secret.lowerBound)]
            out += credentialsMask.utf8
            copied = secret.upperBound
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Adds the ranges of secret values in the query of the URL whose host starts at `start`; returns where
    /// the scan stopped.
    private static func secretQueryValues(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ scan: Scan,
                                          into secrets: inout [Range<Int>]) -> Int {
        var i = start
        while i < bytes.count, bytes[i] != UInt8(ascii: "?"), bytes[i] != UInt8(ascii: "#"), !endsURL(bytes[i], scan) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "?") else { return i }
        while i < bytes.count, bytes[i] != UInt8(ascii: "#"), !endsURL(bytes[i], scan) {
            let nameStart = i + 1
            i = nameStart
            while i < bytes.count, !endsParameter(bytes[i], scan), bytes[i] != UInt8(ascii: "=") { i += 1 }
            let name = nameStart..<i
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
            let valueStart = i + 1
            i = valueStart
            while i < bytes.count, !endsParameter(bytes[i], scan) { i += 1 }
            if valueStart < i, isSecretName(bytes[name]) { secrets.append(valueStart..<i) }
        }
        return i
    }

    private static func endsParameter(_ byte: UInt8, _ scan: Scan) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#") || endsURL(byte, scan)
    }

    /// Where a URL quoted in free text ends; a URL given alone ends only with the text.
    private static func endsURL(_ byte: UInt8, _ scan: Scan) -> Bool {
        guard scan == .text else { return false }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"): return true
        default: return byte <= 0x20 || byte == 0x7F
        }
    }

    private static func isSecretName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let decoded = String(decoding: URLBytes.percentDecoded(name), as: UTF8.self).lowercased()
        return secretQueryNames.contains(decoded) || secretQueryPrefixes.contains { decoded.hasPrefix($0) }
    }
}

/// A URL split where libcurl reads its login (RFC 3986 §3.2: the user-info ends at the authority's last
/// `@`, the authority at the first `/`, `?` or `#` after `scheme://`), by the same scan that masking uses.
/// RemoteMedia hands libcurl `address` and the login as separate options, so libcurl never reads a
/// user-info of its own and what it sends is exactly what is masked.
public struct URLLogin: Equatable, Sendable {
    /// The URL without its user-info.
    public let address: String
    /// The user name and password, percent-decoded as libcurl decodes them; nil when the URL has no login.
    public let user: String?
    public let password: String?

    public init(address: String, user: String?, password: String?) {
        (self.address, self.user, self.password) = (address, user, password)
    }

    public init(_ url: String) {
        var url = url
        let parts = url.withUTF8 { bytes -> (String, String?, String?)? in
            guard let authority = URLBytes.authorityStart(in: bytes, from: 0) else { return nil }
            let host = URLBytes.hostStart(in: bytes, authority: authority, endingAtAnyOf: [.slash, .question, .hash])
            guard host > authority else { return nil }
            let login = bytes[authority..<(host - 1)]
            let colon = login.firstIndex(of: UInt8(ascii: ":"))
            let user = URLBytes.percentDecoded(login[..<(colon ?? login.endIndex)])
            let password = colon.map { URLBytes.percentDecoded(login[($0 + 1)...]) }
            let address = Array(bytes[..<authority]) + Array(bytes[host...])
            return (String(decoding: address, as: UTF8.self), String(decoding: user, as: UTF8.self),
                    password.map { String(decoding: $0, as: UTF8.self) })
        }
        (address, user, password) = parts ?? (url, nil, nil)
    }
}

/// The byte scans both share.
enum URLBytes {
    enum Delimiter: UInt8 {
        case slash = 0x2F, question = 0x3F, hash = 0x23
    }

    /// The index just after the next `://` that follows a scheme (a letter, then letters, digits, `+-.`).
    static func authorityStart(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var i = index
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/"),
               i > index, isSchemeByte(bytes[i - 1]) {
                return i + 3
            }
            i += 1
        }
        return nil
    }

    /// Just after the last `@` before the first of `delimiters` (or the end) from `authority`; `authority`
    /// itself when there is no `@`, i.e. no login.
    static func hostStart(in bytes: UnsafeBufferPointer<UInt8>, authority: Int, endingAtAnyOf delimiters: [Delimiter]) -> Int {
        var end = authority
        while end < bytes.count, !delimiters.contains(where: { $0.rawValue == bytes[end] }) { end += 1 }
        guard let at = bytes[authority..<end].lastIndex(of: UInt8(ascii: "@")) else { return authority }
        return at + 1
    }

    /// `%XX` escapes decoded; a `%` not followed by two hex digits is kept as it is.
    static func percentDecoded(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || (byte >= 48 && byte <= 57)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
