import CoverArt
import FoundationEssentials
import Glibc
import Logging
import PlayerCore

/// The files written for embedded covers under `$XDG_CACHE_HOME/quaver/art/`, kept within a size.
///
/// A cover is written at a temporary name no one can guess (`O_CREAT | O_EXCL | O_NOFOLLOW`: a link planted
/// there is never followed, and a name taken makes the write fail rather than reuse it) and then renamed
/// into place, so a client never reads half an image and a link at the final name is replaced, not written
/// through. Past `maximumBytes` the least recently advertised covers are removed, never the last few handed
/// out (`protectedCount`): the current track's Metadata and notification name them.
public final class ArtStore {
    /// A few hundred covers of a usual size; at least one of `CoverImage.maximumByteCount`.
    public static let defaultMaximumBytes = 64 << 20
    /// The covers handed out last (the current track's, the one before, the one becoming current).
    static let protectedCount = 4

    let directory: URL
    private let maximumBytes: Int
    private let log: Logger
    /// File names handed out, newest last, at most `protectedCount`.
    private var protected: [String] = []

    init(directory: URL, maximumBytes: Int, log: Logger) {
        self.directory = directory
        self.maximumBytes = maximumBytes
        self.log = log
    }

    /// The file holding `bytes`, written if it is not there yet; nil for what may not be shown: more than
    /// `CoverImage.maximumByteCount` bytes, not an image by its first bytes, or too many pixels. The file
    /// extension comes from the bytes, never from the tag's MIME type.
    func file(for bytes: [UInt8]) -> URL? {
        guard bytes.count <= CoverImage.maximumByteCount else { return nil }
        guard case .success(let header) = CoverFile.vetted(bytes) else { return nil }
        let name = ArtworkCache.contentName(of: bytes) + "." + header.format.rawValue
        let target = directory.appendingPathComponent(name)
        if isPresent(target) {
            utimensat(AT_FDCWD, target.path, nil, AT_SYMLINK_NOFOLLOW)  // now the most recently advertised
        } else if !write(bytes, to: target) {
            return nil
        }
        protect(name)
        evictOldest()
        return target
    }

    /// A regular file (a link at a cover's name is not one of ours).
    func isPresent(_ file: URL) -> Bool {
        var status = stat()
        return lstat(file.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    private func protect(_ name: String) {
        protected.removeAll { $0 == name }
        protected.append(name)
        if protected.count > Self.protectedCount { protected.removeFirst() }
    }

    private func write(_ bytes: [UInt8], to target: URL) -> Bool {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(Self.randomSuffix()).tmp")
            try Self.writeNew(bytes, at: temporary.path)
            guard rename(temporary.path, target.path) == 0 else {
                defer { unlink(temporary.path) }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            return true
        } catch {
            log.warning("cannot write cover art \(target.path): \(error)")
            return false
        }
    }

    /// Creates `path`, which must not exist (not even as a link), and writes all of `bytes` to it.
    private static func writeNew(_ bytes: [UInt8], at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            guard count > 0 else {
                unlink(path)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += count
        }
    }

    /// 64 random bits in hex: no one can plant a link at the name before it is created.
    private static func randomSuffix() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }

    /// Removes the covers advertised longest ago (by modification time, renewed at each use) until the
    /// folder is within `maximumBytes`, leaving the protected ones.
    private func evictOldest() {
        var files = storedFiles()
        var total = files.reduce(0) { $0 + $1.bytes }
        guard total > maximumBytes else { return }
        files.sort { $0.modified < $1.modified }
        for file in files where total > maximumBytes && !protected.contains(file.name) {
            if unlink(directory.appendingPathComponent(file.name).path) == 0 { total -= file.bytes }
        }
    }

    private func storedFiles() -> [(name: String, bytes: Int, modified: Double)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name in
            var status = stat()
            guard lstat(directory.appendingPathComponent(name).path, &status) == 0,
                  status.st_mode & S_IFMT == S_IFREG else { return nil }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            return (name, Int(status.st_size), modified)
        }
    }
}
