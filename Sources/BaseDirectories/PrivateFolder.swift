import FoundationEssentials
import Glibc

/// Quaver's folders hold what others must not read: downloaded music, URLs with passwords, the queue.
/// The daemon's umask makes what it creates 0700/0600; folders made by an older version or by hand may be
/// looser, and this tightens them. Making the top folder 0700 is enough: nobody else can reach anything
/// under it, whatever the modes inside.
extension BaseDirectory {
    /// A looser-than-private folder that was made private.
    public struct Tightened: Equatable, Sendable, CustomStringConvertible {
        public let folder: URL
        public let formerMode: UInt16
        public var description: String {
            "made \(folder.path) private (0700; it was \(String(formerMode, radix: 8)))"
        }
    }

    /// Quaver's cache, state and data folders made private (the data one holds saved playlists, whose URLs may
    /// carry passwords), for a daemon at start: what was changed, and why a folder could not be.
    /// The config folder is the user's own, where the daemon writes nothing: it is left as it is.
    public static func makeQuaverFoldersPrivate() -> (changed: [Tightened], refused: [String]) {
        var changed: [Tightened] = [], refused: [String] = []
        for base in [BaseDirectory.cache, .state, .data] {
            do {
                if let change = try base.makeQuaverFolderPrivate() { changed.append(change) }
            } catch {
                refused.append("\(error)")
            }
        }
        return (changed, refused)
    }

    /// Sets Quaver's folder here to 0700 if it exists and group or others have any access; returns what it
    /// changed, nil when the folder is missing or already private. A symbolic link is left alone, and never
    /// followed: the mode is changed through a descriptor opened with O_NOFOLLOW. A folder that belongs to
    /// another user is refused (an error), not changed: its owner could change it back.
    public func makeQuaverFolderPrivate(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> Tightened? {
        let folder = try quaverFolder(environment: environment)
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        guard info.st_uid == geteuid() else {
            throw BaseDirectoryError(description: "\(folder.path) belongs to user \(info.st_uid), not to us (\(geteuid())): left as it is")
        }
        let mode = UInt16(info.st_mode & 0o7777)
        guard mode & 0o077 != 0 else { return nil }
        guard fchmod(fd, 0o700) == 0 else {
            throw BaseDirectoryError(description: "cannot make \(folder.path) private: \(String(cString: strerror(errno)))")
        }
        return Tightened(folder: folder, formerMode: mode)
    }
}

/// A folder of Quaver's own that files are kept in and reached only through its descriptor (`openat` and
/// friends), so nothing in it is reached through a link and the folder cannot be swapped after the check.
public enum OwnFolder {
    /// Why a folder was refused: "a symbolic link", "owned by user 65534, not by us (0)", …
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens `url` as a descriptor, creating it (0700) with its parents when missing; an existing one that
    /// others may read is made 0700. Refused: a symbolic link, not a folder, another user's (files planted by
    /// them would be used as ours), or one group or others may write to.
    public static func open(_ url: URL) throws -> Int32 {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        mkdir(url.path, 0o700)
        let fd = Glibc.open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            var info = stat()
            let kind = lstat(url.path, &info) == 0 ? info.st_mode & S_IFMT : 0
            // O_DIRECTORY says ENOTDIR for a link to a folder too: name what it really is.
            throw Refusal(description: kind == S_IFLNK ? "a symbolic link" : kind != 0 && kind != S_IFDIR ? "not a folder" : reason)
        }
        var info = stat()
        fstat(fd, &info)
        if let problem = problem(with: info) {
            close(fd)
            throw Refusal(description: problem)
        }
        if info.st_mode & 0o077 != 0 { fchmod(fd, 0o700) }
        return fd
    }

    private static func problem(with info: stat) -> String? {
        if info.st_uid != geteuid() { return "owned by user \(info.st_uid), not by us (\(geteuid()))" }
        if info.st_mode & 0o022 != 0 { return "writable by others (mode \(String(info.st_mode & 0o777, radix: 8)))" }
        return nil
    }
}
