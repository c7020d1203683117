import Glibc

/// The playlist formats Quaver reads, chosen by file extension.
public enum PlaylistFormat: Sendable {
    /// `.m3u` and `.m3u8`: one reference per line, `#` comments, `#EXTINF:<seconds>,<title>`.
    case m3u
    /// `.pls`: an INI file with `FileN=`, `TitleN=`, `LengthN=` keys.
    case pls

    /// The format for a file name, by extension (case ignored); `nil` if it is not a playlist.
    public init?(path: String) {
        self.init(pathBytes: Array(path.utf8))
    }

    init?(pathBytes: [UInt8]) {
        let name = pathBytes.split(separator: UInt8(ascii: "/")).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        switch String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased() {
        case "m3u", "m3u8": self = .m3u
        case "pls": self = .pls
        default: return nil
        }
    }
}

/// A playlist file that cannot be read at all (its entries are checked one by one instead).
public struct PlaylistReadError: Error, Equatable, CustomStringConvertible {
    public let path: String
    /// The system's reason (`strerror`).
    public let reason: String
    public var description: String { "cannot read playlist \(path): \(reason)" }
}

/// Reads `.m3u`, `.m3u8` and `.pls` playlists into entries.
///
/// Text is UTF-8 (a leading byte-order mark is dropped); a file that is not valid UTF-8 is read as
/// Latin-1, the historical encoding of `.m3u`. Line ends may be LF, CRLF or CR. Each reference may be
/// an absolute path, a path relative to the playlist's folder, a `file://` URI or an `http(s)` URL;
/// a folder gives its audio files and a nested playlist its entries. Missing files are reported in
/// `skipped` with their line and left out.
public enum PlaylistFile {
    /// Reads the playlist at `path` (absolute), its format chosen by extension, `.m3u` if none matches.
    public static func read(path: String) throws(PlaylistReadError) -> MediaList {
        let bytes = Array(path.utf8)
        return try read(pathBytes: bytes, format: PlaylistFormat(pathBytes: bytes) ?? .m3u, ancestors: [],
                        budget: ExpansionBudget())
    }

    /// Parses playlist `text` as if it were the file at `playlistPath` (absolute), whose folder
    /// relative references start from.
    public static func parse(text: String, format: PlaylistFormat, playlistPath: String) -> MediaList {
        parse(text: text, format: format, pathBytes: Array(playlistPath.utf8), ancestors: [], budget: ExpansionBudget())
    }

    /// `ancestors`: the playlists that led here, outermost first (see `ExpansionBudget` for every limit).
    static func read(pathBytes: [UInt8], format: PlaylistFormat, ancestors: [FileIdentity],
                     budget: ExpansionBudget) throws(PlaylistReadError) -> MediaList {
        let (data, identity) = try readAll(pathBytes)
        let text = String(validating: data, as: UTF8.self) ?? String(String.UnicodeScalarView(data.map(Unicode.Scalar.init)))
        return parse(text: text, format: format, pathBytes: pathBytes, ancestors: ancestors + [identity], budget: budget)
    }

    private static func parse(text: String, format: PlaylistFormat, pathBytes: [UInt8], ancestors: [FileIdentity],
                              budget: ExpansionBudget) -> MediaList {
        let folder = Array(pathBytes[..<(pathBytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
        let resolver = ReferenceResolver(playlist: String(decoding: pathBytes, as: UTF8.self),
                                         folder: folder.isEmpty ? [UInt8(ascii: "/")] : folder, ancestors: ancestors,
                                         budget: budget)
        let body = text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
        // `Character.isNewline` takes "\r\n" as one character, so CRLF counts as one line end.
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        switch format {
        case .m3u: return M3U.entries(lines, resolver)
        case .pls: return PLS.entries(lines, resolver)
        }
    }

    /// The file's bytes and identity. Only a regular file of at most `ExpansionBudget.maximumPlaylistBytes`
    /// is read. It is opened without blocking (a named pipe would wait for a writer) and checked on the open
    /// descriptor (`fstat`), so it cannot be swapped for something else between the check and the read.
    private static func readAll(_ path: [UInt8]) throws(PlaylistReadError) -> ([UInt8], FileIdentity) {
        let name = String(decoding: path, as: UTF8.self)
        let fd = open(cPath(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            var info = stat()  // a socket cannot be opened at all (ENXIO): say what it is
            let why = stat(cPath(path), &info) == 0 ? notRegularFileReason(info.st_mode) : nil
            throw PlaylistReadError(path: name, reason: why ?? errnoText())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PlaylistReadError(path: name, reason: errnoText()) }
        if let why = notRegularFileReason(info.st_mode) { throw PlaylistReadError(path: name, reason: why) }
        let limit = ExpansionBudget.maximumPlaylistBytes
        let tooLarge = PlaylistReadError(path: name, reason: "larger than \(limit >> 20) MiB")
        guard info.st_size <= limit else { throw tooLarge }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count == 0 { return (data, FileIdentity(info)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PlaylistReadError(path: name, reason: errnoText())
            }
            data += chunk[..<count]
            guard data.count <= limit else { throw tooLarge }  // a file that grows while it is read
        }
    }
}
