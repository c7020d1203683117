/// URL text without its credentials (`http://user:password@host/…`). Credentials are for fetching only:
/// the cache names and records a file by its URL without them. (What is shown to a person or written to
/// a log masks them instead: `PublicText.maskingCredentials`.)
public enum RemoteURL {
    /// `url` with the userinfo of its authority removed (everything up to the last `@` before the path,
    /// query or fragment, RFC 3986 §3.2), read as text so that a URL no parser accepts loses it too.
    public static func withoutCredentials(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authority = url[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + String(url[url.index(after: at)...])
    }
}
