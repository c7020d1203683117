// PublicText: text made fit to show outside the daemon. Pure Swift: imports nothing.
/// Text the daemon shows outside its private state (D-Bus properties and replies, log lines), made safe to
/// show: credentials in URLs masked, NUL removed, length bounded.
///
/// Credentials are *masked*, not dropped: `http://alice:s3cret@host/a.mp3?token=t` becomes
/// `http://***@host/a.mp3?token=***`, so a reader still sees that the URL carries a login (and which host),
/// never the user name, the password or the token (URLSecrets.swift says what counts as one). Masking comes
/// before cutting, so a cut can never leave half a password unmasked.
///
/// Tags come from files and streams anyone can make: a 1 MB title or 10 000 artists would make every
/// GetAll and PropertiesChanged megabytes long. Strings are cut at `maximumUTF8Count` bytes (on a Unicode
/// scalar boundary, so the result stays valid UTF-8, with `…` marking the cut) and lists at `maximumListCount`
/// entries. URLs get the longer `maximumURLUTF8Count`: a percent-encoded path of PATH_MAX bytes fits.
public enum PublicText {
    public static let maximumUTF8Count = 4096
    public static let maximumURLUTF8Count = 16384
    public static let maximumListCount = 100
    /// What replaces the user name and password of a URL.
    public static let credentialsMask = "***"

    /// `text` with credentials masked, without NUL, at most `limit` UTF-8 bytes.
    public static func from(_ text: String, limit: Int = maximumUTF8Count) -> String {
        bounded(maskingCredentials(in: text), limit: limit)
    }

    /// At most `maximumListCount` entries, each made public with `from`.
    public static func list(_ texts: [String]) -> [String] {
        texts.prefix(maximumListCount).map { from($0) }
    }

    /// `text` without NUL (a D-Bus string cannot carry one), cut to at most `limit` UTF-8 bytes.
    /// Credentials are left as they are: for tags read from a file, which hold none of ours.
    public static func bounded(_ text: String, limit: Int = maximumUTF8Count) -> String {
        // Bytes, not Characters: cheap for the common short, clean string.
        let bytes = text.utf8
        guard bytes.count > limit || bytes.contains(0) else { return text }
        let clean = bytes.contains(0) ? String(decoding: bytes.lazy.filter { $0 != 0 }, as: UTF8.self) : text
        guard clean.utf8.count > limit else { return clean }
        let ellipsis = "…"
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in clean.unicodeScalars {
            let size = String(scalar).utf8.count
            if count + size > limit - ellipsis.utf8.count { break }
            kept.append(scalar)
            count += size
        }
        return String(kept) + ellipsis
    }
}
