/// One saved playlist as listed: what the CLI and the MPRIS Playlists interface show of it.
public struct SavedPlaylist: Equatable, Sendable {
    /// 32 hexadecimal digits, kept in the file itself (`#QUAVER-ID:`), so it survives restarts and renames;
    /// a file the user put in the folder by hand gets one derived from its name until Quaver saves it.
    public let id: String
    public let name: PlaylistName
    public let entryCount: Int
    /// Seconds since 1970: when it was first saved (`#QUAVER-CREATED:`; the file's change time for a hand-made one).
    public let created: Int64
    /// Seconds since 1970: the file's modification time.
    public let modified: Int64
    /// Where a playlist found among the music is (`FoundPlaylists`): read-only. Nil for Quaver's own.
    public let foundAt: String?
    /// The URI of its first track, whose album's cover is the playlist's icon.
    public let firstURI: String?

    public init(id: String, name: PlaylistName, entryCount: Int, created: Int64, modified: Int64, foundAt: String? = nil,
                firstURI: String? = nil) {
        self.id = id
        self.name = name
        self.entryCount = entryCount
        self.created = created
        self.modified = modified
        self.foundAt = foundAt
        self.firstURI = firstURI
    }
}
