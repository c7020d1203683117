import ControlAPI
import Glibc

/// What one expansion may cost, shared by every playlist and folder it reaches, so that no input can make
/// the CLI (or anything else expanding media) hang or run out of memory:
/// - a playlist file larger than `maximumPlaylistBytes` is refused unread;
/// - only regular files are read as playlists: `/dev/zero` would never end, a named pipe would wait for a
///   writer, a socket cannot be read (media files are only named here; the daemon refuses those that are
///   not regular files);
/// - a playlist that includes itself, directly or through others, is refused where it does (`ancestors`);
/// - the whole expansion stops at `maximumEntries`, whatever the nesting (ten playlists that each list the
///   next one ten thousand times would otherwise give 10 000^10 entries).
final class ExpansionBudget {
    static let maximumPlaylistBytes = 16 << 20
    static let maximumEntries = InputLimits.maximumURIsPerCall

    private(set) var entryCount = 0
    private var toldLimit = false

    var isSpent: Bool { entryCount >= Self.maximumEntries }

    /// `list` with its entries cut to what is left of the budget; the first cut is reported once.
    func take(_ list: MediaList, at place: Place) -> MediaList {
        var kept = list
        let room = Self.maximumEntries - entryCount
        if kept.entries.count > room {
            kept.entries.removeLast(kept.entries.count - room)
            kept.append(spent(at: place))
        }
        entryCount += kept.entries.count
        return kept
    }

    /// What a reference met once the budget is spent: the limit, said at the first such place only.
    func spent(at place: Place) -> MediaList {
        guard !toldLimit else { return MediaList() }
        toldLimit = true
        return MediaList(skipped: [SkippedEntry(playlist: place.playlist, line: place.line, reference: place.reference,
                                                reason: .refused("more than \(Self.maximumEntries) entries in all: the rest is left out"))])
    }

    typealias Place = (playlist: String?, line: Int?, reference: String)
}

/// A file's identity, to find a playlist that includes itself whatever path it is reached by.
struct FileIdentity: Hashable {
    let device: UInt
    let inode: UInt

    init(_ info: stat) {
        device = UInt(info.st_dev)
        inode = UInt(info.st_ino)
    }
}

/// Why a file that exists is not read: anything but a regular file, named by what it is.
func notRegularFileReason(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFIFO: return "not a regular file (a named pipe)"
    case S_IFSOCK: return "not a regular file (a socket)"
    case S_IFCHR, S_IFBLK: return "not a regular file (a device)"
    default: return "not a regular file"
    }
}
