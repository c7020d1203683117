import BaseDirectories
import ControlAPI
import PlayerCore
import Playlists

/// The saved playlists: one M3U8 file each in one folder. Every call works on the files at once and may take a
/// while (20 000 entries): the daemon calls it from a thread of its own, never from the loop.
public struct PlaylistFolder: Sendable {
    public let path: String
    /// Local files under these folders (the library's) are written relative to the playlist (`PlaylistText`).
    public let musicFolders: [String]
    private var files: FolderFiles { FolderFiles(path: path) }

    public init(path: String, musicFolders: [String]) {
        self.path = path
        self.musicFolders = musicFolders
    }

    /// `$XDG_DATA_HOME/quaver/playlists`.
    public static func standard(musicFolders: [String]) throws -> PlaylistFolder {
        PlaylistFolder(path: try BaseDirectory.data.quaverFolder().appendingPathComponent("playlists").path,
                       musicFolders: musicFolders)
    }

    /// Every saved playlist, in no particular order; files that are not `NAME.m3u8` with a valid name are left out.
    public func list() throws(PlaylistStoreError) -> [SavedPlaylist] {
        try files.names().compactMap { fileName -> SavedPlaylist? in
            guard let name = PlaylistName(fileName: fileName) else { return nil }
            return try? describe(name)
        }
    }

    /// Changes when a playlist is added, removed or renamed (a cheap `stat`, fit for the loop): the sign that a
    /// listing kept in memory is out of date.
    public var folderModification: Int64 { files.modification() }

    /// The listing of one playlist, nil when it does not exist.
    public func describe(_ name: PlaylistName) throws(PlaylistStoreError) -> SavedPlaylist? {
        guard let file = try files.read(name.fileName, limit: Self.largestFile) else { return nil }
        let header = PlaylistText.header(of: file.bytes)
        return SavedPlaylist(id: header.id ?? Self.derivedID(name), name: name,
                             entryCount: PlaylistText.entryCount(of: file.bytes),
                             created: header.created ?? file.changed, modified: file.modified,
                             firstURI: firstURI(in: file.bytes))
    }

    /// Writes `tracks` as `name`, over any playlist of that name (whose id and creation time it keeps).
    @discardableResult
    public func save(_ tracks: QueueSnapshot, as name: PlaylistName, now: Int64) throws(PlaylistStoreError) -> SavedPlaylist {
        try files.create()
        let old = try describe(name)
        let id = old?.id ?? Self.newID(), created = old?.created ?? now
        let text = PlaylistText(folder: Array(path.utf8), musicFolders: musicFolders.map { Array($0.utf8) })
        try files.replace(name.fileName, with: text.text(id: id, created: created, tracks: tracks))
        guard let saved = try describe(name) else { throw .file("\(name.fileName) vanished after it was written") }
        return saved
    }

    /// The playlist's tracks, with the lengths it gives; entries whose files are gone are in `skipped`. Without
    /// a saved playlist of that name, one found among the music (`found`) is read where it is.
    public func read(_ name: PlaylistName, found: String? = nil) throws(PlaylistStoreError)
        -> (entries: [QueueEntry], skipped: [SkippedEntry]) {
        let file: String
        if try describe(name) != nil {
            file = path + "/" + name.fileName
        } else if let found {
            file = found
        } else {
            throw .notFound(name.text)
        }
        let list: MediaList
        do {
            list = try PlaylistFile.read(path: file)
        } catch {
            throw .file(error.description)
        }
        let entries = list.entries.map { entry in
            QueueEntry(uri: entry.uri, duration: entry.lengthSeconds.map { Duration.seconds($0) })
        }
        return (entries, list.skipped)
    }

    /// The first entry that names an existing file or a URL, as the reader resolves it (a file gone is skipped).
    private func firstURI(in bytes: [UInt8]) -> String? {
        for line in bytes.prefix(16_384).split(separator: UInt8(ascii: "\n")).prefix(PlaylistText.firstEntriesTried) {
            let text = String(decoding: line, as: UTF8.self)
            guard !text.hasPrefix("#") else { continue }
            let list = PlaylistFile.parse(text: text, format: .m3u, playlistPath: path + "/x.m3u8")
            if let uri = list.entries.first?.uri { return uri }
        }
        return nil
    }

    public func remove(_ name: PlaylistName) throws(PlaylistStoreError) {
        try files.remove(name.fileName)
    }

    /// Renames without replacing another playlist; the id goes with the file.
    public func rename(_ name: PlaylistName, to newName: PlaylistName) throws(PlaylistStoreError) -> SavedPlaylist {
        try files.rename(name.fileName, to: newName.fileName)
        guard let renamed = try describe(newName) else { throw .notFound(newName.text) }
        return renamed
    }

    /// The reader's own limit (`PlaylistFile`): a larger file could be listed but not loaded.
    static let largestFile = 16 << 20

    private static func newID() -> String {
        (0..<2).map { _ in hex(UInt64.random(in: 0...UInt64.max)) }.joined()
    }

    /// FNV-1a of the name, for a file saved by hand without an id: stable as long as it keeps its name.
    static func derivedID(_ name: PlaylistName) -> String {
        derivedID(name.text)
    }

    /// The digest of `text` (a name, or a found playlist's path).
    static func derivedID(_ text: String) -> String {
        TextDigest.fnv1a(text)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
