/// One playable item found in a playlist, a folder or on the command line.
public struct MediaEntry: Equatable, Sendable {
    /// A percent-encoded `file://` URI, or an `http(s)://` URL as written.
    public let uri: String
    /// The title the playlist gives (`#EXTINF`, PLS `TitleN`), to show until the tags are read.
    public let title: String?
    /// The length in seconds the playlist gives, when positive (`-1` means a stream).
    public let lengthSeconds: Int?

    public init(uri: String, title: String? = nil, lengthSeconds: Int? = nil) {
        self.uri = uri
        self.title = title
        self.lengthSeconds = lengthSeconds
    }
}

/// Something that named media but gave nothing playable: reported to the user, then left out.
public struct SkippedEntry: Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// No file or folder at that path.
        case notFound
        /// A URI Quaver does not play (`ftp:`, `smb:`, a `file:` URI of another host…).
        case unsupportedURI
        /// It exists but cannot be read; the text is the system's reason.
        case unreadable(String)
        /// It is not read, on purpose: not a regular file, a playlist that includes itself, too large.
        case refused(String)
    }

    /// The playlist that holds the reference, or `nil` for a command-line argument.
    public let playlist: String?
    /// 1-based line in `playlist`.
    public let line: Int?
    /// The reference as written.
    public let reference: String
    public let reason: Reason

    public init(playlist: String?, line: Int?, reference: String, reason: Reason) {
        self.playlist = playlist
        self.line = line
        self.reference = reference
        self.reason = reason
    }

    /// `list.m3u:12: "a.flac": no such file or folder`, for logs and the CLI.
    public var description: String {
        var place = ""
        if let playlist { place = line.map { "\(playlist):\($0): " } ?? "\(playlist): " }
        return "\(place)\"\(reference)\": \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .notFound: return "no such file or folder"
        case .unsupportedURI: return "not a local file or an http(s) URL"
        case .unreadable(let why): return "cannot be read (\(why))"
        case .refused(let why): return why
        }
    }
}

/// What an expansion produced: the entries in play order, and what was left out.
public struct MediaList: Equatable, Sendable {
    public var entries: [MediaEntry]
    public var skipped: [SkippedEntry]

    public init(entries: [MediaEntry] = [], skipped: [SkippedEntry] = []) {
        self.entries = entries
        self.skipped = skipped
    }

    mutating func append(_ other: MediaList) {
        entries += other.entries
        skipped += other.skipped
    }
}
