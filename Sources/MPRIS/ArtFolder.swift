import Foundation

/// The art cache's folder, opened once and used only through its descriptor (`openat`, `renameat`,
/// `fstatat`, `unlinkat`), so no file in it is reached through a link and the folder cannot be swapped for
/// another after it was checked. Only a folder of ours that no one else may write to is used: covers planted
/// there by another user would be advertised as ours.
final class ArtFolder {
    let url: URL
    private let descriptor: Int32

    /// Opens `url`, creating it (0700) with its parents if missing; an existing one with wider read modes is
    /// made 0700. Refused: a symbolic link, not a folder, another user's, or writable by group or others.
    init(_ url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        mkdir(url.path, 0o700)
        descriptor = try Self.openOwnFolder(url)
    }

    private static func openOwnFolder(_ url: URL) throws -> Int32 {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            var status = stat()
            let isLink = lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
            throw Refusal(url, isLink ? "a symbolic link" : reason)  // O_DIRECTORY says ENOTDIR for a link to a folder
        }
        var status = stat()
        fstat(descriptor, &status)
        if let problem = problem(with: status) {
            close(descriptor)
            throw Refusal(url, problem)
        }
        if status.st_mode & 0o077 != 0 { fchmod(descriptor, 0o700) }
        return descriptor
    }

    private static func problem(with status: stat) -> String? {
        if status.st_uid != geteuid() { return "owned by user \(status.st_uid), not by us (\(geteuid()))" }
        if status.st_mode & 0o022 != 0 { return "writable by others (mode \(String(status.st_mode & 0o777, radix: 8)))" }
        return nil
    }

    deinit { close(descriptor) }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ url: URL, _ reason: String) { description = "refusing the art cache \(url.path): \(reason)" }
    }

    /// Size and modification time of the regular file `name`; nil for anything else (a link is not ours).
    func regularFile(_ name: String) -> (bytes: Int, modified: Double)? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int(status.st_size), Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    /// Every regular file in the folder.
    func regularFiles() -> [(name: String, bytes: Int, modified: Double)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.compactMap { name in regularFile(name).map { (name, $0.bytes, $0.modified) } }
    }

    /// Sets the file's modification time to now.
    func touch(_ name: String) {
        utimensat(descriptor, name, nil, AT_SYMLINK_NOFOLLOW)
    }

    @discardableResult
    func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    /// Writes `bytes` as `name`: at a temporary name no one can guess, created with `O_CREAT | O_EXCL |
    /// O_NOFOLLOW` (a link planted there is never followed, a name taken fails the write), then renamed over
    /// `name` (a link there is replaced, not written through), so a client never reads half an image.
    func write(_ bytes: [UInt8], as name: String) throws {
        let temporary = ".\(name).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
        let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Self.lastError() }
        let written = Self.writeAll(bytes, to: file)
        close(file)
        guard written, renameat(descriptor, temporary, descriptor, name) == 0 else {
            let error = Self.lastError()
            remove(temporary)
            throw error
        }
    }

    private static func writeAll(_ bytes: [UInt8], to file: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + written, bytes.count - written) }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    private static func lastError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
