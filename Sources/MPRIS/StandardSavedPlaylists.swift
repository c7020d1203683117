import FoundationEssentials
import Logging
import PlaylistStore

extension SavedPlaylists {
    /// The saved playlists under `$XDG_DATA_HOME/quaver/playlists` (tracks under `musicFolders` saved relative to
    /// the playlist); nil without a home folder, said in the log.
    public static func standard(mpris: MPRISService, musicFolders: [String], log: Logger) -> SavedPlaylists? {
        do {
            let folder = try PlaylistFolder.standard(musicFolders: musicFolders)
            return SavedPlaylists(mpris: mpris, folder: folder) { Int64(Date().timeIntervalSince1970) }
        } catch {
            log.error("playlists cannot be saved: \(error)")
            return nil
        }
    }
}
