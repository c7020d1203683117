// PlaylistStore: the user's saved playlists, M3U8 files in `$XDG_DATA_HOME/quaver/playlists/`. An adapter without C
// of its own (Glibc for the file calls): may import PlayerCore, ControlAPI, Playlists and BaseDirectories.

/// A saved playlist's name, checked: it becomes a file name, and it comes from any client on the bus.
public struct PlaylistName: Hashable, Sendable, CustomStringConvertible {
    /// File names on Linux are at most 255 bytes; the extension and the temporary file's prefix and suffix need room.
    public static let maximumBytes = 200
    public static let fileExtension = ".m3u8"

    public let text: String
    public var description: String { text }
    /// The playlist's file name in its folder.
    public var fileName: String { text + Self.fileExtension }

    /// Refuses what would leave the folder (`/`, `..`), hide the file (a leading dot), break a line of a listing
    /// (control characters, NUL) or not fit in a file name.
    public init(_ text: String) throws(PlaylistStoreError) {
        guard !text.isEmpty else { throw .badName("a playlist name cannot be empty") }
        guard text.utf8.count <= Self.maximumBytes else {
            throw .badName("a playlist name is at most \(Self.maximumBytes) bytes, not \(text.utf8.count)")
        }
        if text.contains("/") { throw .badName("a playlist name cannot contain \"/\"") }
        if text.hasPrefix(".") { throw .badName("a playlist name cannot start with \".\"") }
        if text.unicodeScalars.contains(where: Self.isControl) {
            throw .badName("a playlist name cannot contain control characters or NUL")
        }
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true {
            throw .badName("a playlist name cannot start or end with a space")
        }
        self.text = text
    }

    /// The name of a file found in the folder (`x.m3u8` → `x`), nil when it is not one a saved playlist could have.
    init?(fileName: String) {
        guard fileName.hasSuffix(Self.fileExtension),
              let name = try? PlaylistName(String(fileName.dropLast(Self.fileExtension.count))) else { return nil }
        self = name
    }

    /// C0, DEL and C1 controls, and the line and paragraph separators, which end a line for some readers.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

/// Why a playlist operation was refused; the text is meant for the user.
public enum PlaylistStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case badName(String)
    case notFound(String)
    case exists(String)
    case file(String)

    public var description: String {
        switch self {
        case .badName(let text), .file(let text): return text
        case .notFound(let name): return "no saved playlist is called \"\(name)\""
        case .exists(let name): return "a saved playlist is already called \"\(name)\""
        }
    }
}
