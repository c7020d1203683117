import Foundation
import Playlists

/// Playlists the user keeps among the music (`.m3u`, `.m3u8`, `.pls` in the library's folders), listed beside the saved
/// ones and played from where they are. Quaver never writes them: saving under the same name makes a saved playlist
/// of Quaver's own, which is listed instead.
public enum FoundPlaylists {
    /// The walk stops after this many folder entries, and keeps this many playlists: a library of 100 000 files is
    /// walked in well under a second, and a folder tree that never ends does not hold the playlist thread.
    static let largestWalk = 500_000
    public static let largestCount = 1000

    /// Every playlist file under `folders` whose name (without its extension) is a valid playlist name.
    public static func find(in folders: [String]) -> [SavedPlaylist] {
        var found: [SavedPlaylist] = [], visited = 0
        for folder in folders {
            guard let walk = FileManager.default.enumerator(atPath: folder) else { continue }
            while let relative = walk.nextObject() as? String, visited < largestWalk, found.count < largestCount {
                visited += 1
                guard PlaylistFormat(path: relative) != nil, let playlist = describe(folder + "/" + relative) else { continue }
                found.append(playlist)
            }
        }
        return found
    }

    /// The listing of one found file: an id from its path (stable while it stays there), its dates, its entries.
    static func describe(_ path: String) -> SavedPlaylist? {
        let fileName = String(path.split(separator: "/").last ?? "")
        let stem = String(fileName[..<(fileName.lastIndex(of: ".") ?? fileName.endIndex)])
        guard let name = try? PlaylistName(stem),
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let modified = (attributes[.modificationDate] as? Date).map({ Int64($0.timeIntervalSince1970) }) else {
            return nil
        }
        let entries = (try? PlaylistFile.read(path: path).entries) ?? []
        return SavedPlaylist(id: PlaylistFolder.derivedID(path), name: name, entryCount: entries.count, created: modified,
                             modified: modified, foundAt: path, firstURI: entries.first?.uri)
    }
}
