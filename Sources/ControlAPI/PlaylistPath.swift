extension ControlAPI {
    /// Saved playlists' ids on the bus (MPRIS Playlists, org.quaver.Quaver1): `/org/quaver/Playlist/<hex>`, where the
    /// hexadecimal digits are the id kept in the playlist's file, so a path names the same playlist across restarts
    /// and renames. Never under `/org/mpris/` (the spec reserves it).
    public enum PlaylistPath {
        public static let prefix = "/org/quaver/Playlist/"
        /// The path of ActivePlaylist when no playlist is active (the spec's invalid `Maybe_Playlist`).
        public static let none = "/"

        /// `id` must be hexadecimal digits (the store only makes such ids), so the path is always valid.
        public static func path(of id: String) -> String {
            prefix + id
        }

        /// The id a path names, or nil for anything that is not a playlist path of ours.
        public static func id(of path: String) -> String? {
            guard path.hasPrefix(prefix) else { return nil }
            let id = path.dropFirst(prefix.count)
            return !id.isEmpty && id.allSatisfy(\.isHexDigit) ? String(id) : nil
        }
    }
}
