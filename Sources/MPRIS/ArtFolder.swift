import BaseDirectories
import FoundationEssentials
import Glibc

/// The art cache's folder, opened once and used only through its descriptor (`openat`, `renameat`,
/// `fstatat`, `unlinkat`), so no file in it is reached through a link and the folder cannot be swapped for
/// another after it was checked. Only a folder of ours that no one else may write to is used: covers planted
/// there by another user would be advertised as ours.
final class ArtFolder {
    let url: URL
    private let descriptor: Int32

    /// Opens `url` as `OwnFolder.open` does (created 0700 when missing; a link, another user's folder or one
    /// others may write to is refused).
    init(_ url: URL) throws {
        self.url = url
        do {
            descriptor = try OwnFolder.open(url)
        } catch let refusal as OwnFolder.Refusal {
            throw Refusal(url, refusal.description)
        }
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
