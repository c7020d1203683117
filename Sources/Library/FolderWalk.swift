import Foundation

/// What `stat` says of a file, enough to tell whether it changed since it was read.
public struct FileState: Equatable, Sendable {
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    init(_ info: stat) {
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    /// The state of the file at `path` (symbolic links followed), nil when it is not a regular file now.
    static func of(_ path: [UInt8]) -> FileState? {
        var info = stat()
        guard withCString(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileState(info)
    }
}

/// Every music file under a folder, by its path's bytes (names need not be UTF-8), found with
/// `opendir`/`readdir`. Symbolic links are followed, but each folder (device and inode) is entered once, so a
/// link to a parent ends instead of looping; depth is bounded too. Unreadable folders and files that vanish
/// while the walk runs are skipped.
struct FolderWalk {
    static let maximumDepth = 64
    /// The extensions of the formats the scanner reads (TagLib) and the engine plays.
    static let musicExtensions: Set<String> = ["flac", "ogg", "oga", "opus", "mp3", "m4a", "m4b", "mp4", "wav", "wv"]

    private var entered = Set<[UInt64]>()
    /// Folders that could not be opened, for the log.
    private(set) var unreadable: [[UInt8]] = []

    /// Calls `found` with each music file under `root` and its state.
    mutating func walk(_ root: [UInt8], found: ([UInt8], FileState) -> Void) {
        walk(root, depth: 0, found: found)
    }

    private mutating func walk(_ folder: [UInt8], depth: Int, found: ([UInt8], FileState) -> Void) {
        var info = stat()
        guard depth <= Self.maximumDepth, withCString(folder, { stat($0, &info) }) == 0,
              info.st_mode & S_IFMT == S_IFDIR,
              entered.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        guard let names = Self.names(in: folder) else { return unreadable.append(folder) }
        for name in names {
            let path = folder + [UInt8(ascii: "/")] + name
            var entry = stat()
            guard withCString(path, { stat($0, &entry) }) == 0 else { continue }  // gone, or a dangling link
            switch entry.st_mode & S_IFMT {
            case S_IFDIR: walk(path, depth: depth + 1, found: found)
            case S_IFREG where Self.isMusic(name): found(path, FileState(entry))
            default: continue
            }
        }
    }

    /// The names in `folder` (without `.` and `..`), nil when it cannot be read.
    static func names(in folder: [UInt8]) -> [[UInt8]]? {
        guard let directory = withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    static func isMusic(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let suffix = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        return musicExtensions.contains(suffix)
    }
}

/// Calls `body` with `bytes` as a NUL-terminated C string.
func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
}
