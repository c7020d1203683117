import Foundation

/// URL text with and without its credentials (`http://user:password@host/…`). Credentials are for
/// fetching only: the cache names and records a file by its URL without them, and anything shown to a
/// person or written to a log uses `redacted`.
public enum RemoteURL {
    /// `url` with its userinfo removed; `url` unchanged when it has none or does not parse.
    public static func withoutCredentials(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil
        else { return url }
        parts.percentEncodedUser = nil
        parts.percentEncodedPassword = nil
        return parts.string ?? url
    }

    /// For display and logs: the same as `withoutCredentials`.
    public static func redacted(_ url: String) -> String { withoutCredentials(url) }
}
