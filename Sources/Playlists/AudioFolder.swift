import ControlAPI
import Glibc

/// Audio files under a folder, recursively, in the order a person browsing the folder expects.
///
/// Order: in each folder, its audio files in natural name order, then each subfolder (natural order) in
/// turn. Hidden entries (names starting with `.`) are skipped. Symbolic links are followed; a folder
/// reached twice (a link loop) is listed once. Works on raw name bytes from `readdir`, so names that
/// are not UTF-8 still give correct URIs, and `d_type` spares a `stat` per file on usual file systems.
public enum AudioFolder {
    /// File extensions taken as audio, lowercased. Other files (covers, cue sheets, playlists) are ignored.
    public static let audioExtensions: Set<String> = [
        "aac", "ac3", "aif", "aifc", "aiff", "alac", "ape", "au", "caf", "dff", "dsf", "flac", "m4a", "m4b",
        "mka", "mp2", "mp3", "mpc", "oga", "ogg", "opus", "spx", "tta", "wav", "wave", "weba", "wma", "wv",
    ]

    /// Whether `name`'s extension is one of `audioExtensions`, case ignored.
    public static func isAudioFileName(_ name: String) -> Bool {
        isAudio(Array(name.utf8))
    }

    /// All audio files under the folder at `path` (absolute, bytes: a folder's name need not be UTF-8), as
    /// `file://` URIs. Folders that cannot be read are reported in `skipped`, with the system's reason.
    public static func scan(pathBytes path: [UInt8]) -> MediaList {
        var walk = Walk()
        walk.visit(folder: path, reference: String(decoding: path, as: UTF8.self))
        return walk.result
    }

    fileprivate static func isAudio(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, name.count - dot <= 6 else { return false }
        let ext = name[(dot + 1)...].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }  // ASCII lowercase
        return audioExtensions.contains(String(decoding: ext, as: UTF8.self))
    }
}

/// One recursive scan: its results and the folders already listed (by device and inode).
private struct Walk {
    var result = MediaList()
    var visited = Set<FolderIdentity>()

    mutating func visit(folder: [UInt8], reference: String) {
        var info = stat()
        guard stat(cPath(folder), &info) == 0 else { return skip(reference, errno) }
        guard visited.insert(FolderIdentity(device: info.st_dev, inode: info.st_ino)).inserted else { return }
        let listing: FolderListing
        switch FolderListing.read(folder) {
        case .success(let read): listing = read
        case .failure(let error): return skip(reference, error.code)
        }
        for file in listing.files {
            result.entries.append(MediaEntry(uri: FileURI.encode(pathBytes: file.path)))
        }
        for sub in listing.folders {
            visit(folder: sub.path, reference: String(decoding: sub.path, as: UTF8.self))
        }
    }

    private mutating func skip(_ reference: String, _ code: Int32) {
        let reason: SkippedEntry.Reason = code == ENOENT ? .notFound : .unreadable(errnoText(code))
        result.skipped.append(SkippedEntry(playlist: nil, line: nil, reference: reference, reason: reason))
    }
}

private struct FolderIdentity: Hashable {
    let device: UInt
    let inode: UInt
}

private struct Errno: Error {
    let code: Int32
}

/// The visible audio files and subfolders of one folder, each sorted naturally.
private struct FolderListing {
    typealias Item = (key: NaturalSortKey, path: [UInt8])
    var files: [Item] = []
    var folders: [Item] = []

    static func read(_ folder: [UInt8]) -> Result<FolderListing, Errno> {
        guard let dir = opendir(cPath(folder)) else { return .failure(Errno(code: errno)) }
        defer { closedir(dir) }
        var listing = FolderListing()
        let prefix = folder.last == UInt8(ascii: "/") ? folder : folder + [UInt8(ascii: "/")]
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.first != UInt8(ascii: ".") else { continue }  // hidden, `.` and `..`
            listing.add(name: name, path: prefix + name, type: entry.pointee.d_type)
        }
        listing.files.sort { $0.key < $1.key }
        listing.folders.sort { $0.key < $1.key }
        return .success(listing)
    }

    private mutating func add(name: [UInt8], path: [UInt8], type: UInt8) {
        switch Self.kind(of: path, type: type) {
        case .folder:
            folders.append((Self.key(name), path))
        case .file where AudioFolder.isAudio(name):
            files.append((Self.key(name), path))
        default:
            break
        }
    }

    private enum Kind { case file, folder, other }

    /// `d_type` when the file system fills it in; `stat` (which follows links) for links and unknowns.
    private static func kind(of path: [UInt8], type: UInt8) -> Kind {
        switch Int32(type) {
        case Int32(DT_REG): return .file
        case Int32(DT_DIR): return .folder
        case Int32(DT_LNK), Int32(DT_UNKNOWN):
            var info = stat()
            guard stat(cPath(path), &info) == 0 else { return .other }  // a dangling link
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .folder
            default: return .other
            }
        default: return .other
        }
    }

    private static func key(_ name: [UInt8]) -> NaturalSortKey {
        NaturalSortKey(String(decoding: name, as: UTF8.self))
    }
}
