import PublicText

/// URL text without its credentials (`http://user:password@host/…`). Credentials are for fetching only:
/// the cache names and records a file by its URL without them. (What is shown to a person or written to
/// a log masks them instead: `PublicText.maskingCredentials`.)
public enum RemoteURL {
    /// `url` with the user-info of its authority removed, as `URLLogin` reads it (everything up to the last
    /// `@` before the path, query or fragment, RFC 3986 §3.2), read as text so that a URL no parser accepts
    /// loses it too.
    public static func withoutCredentials(_ url: String) -> String {
        URLLogin(url).address
    }
}
