import CFileSpace
import FoundationEssentials
import Glibc

/// What the cache knows about one remote file, kept as JSON next to its bytes.
struct CacheSidecar: Codable, Equatable {
    /// The URL without credentials (`RemoteURL.withoutCredentials`): the sidecar never holds a password.
    var url: String
    var etag: String?
    var lastModified: String?
    /// Total length announced by the server; `nil` until the first response.
    var length: UInt64?
    var present = ByteRanges()
    /// Seconds since 1970 of the last play, for least-recently-used eviction.
    var lastUsed: Double

    var isComplete: Bool { length.map { present.covers(0..<$0) } ?? false }
}

/// One cached file: a sparse data file written at the offsets downloaded, and its sidecar. Both are reached
/// from the cache folder's descriptor and never through a symbolic link (O_NOFOLLOW): a link planted at
/// their names is removed, never written through.
/// Not thread-safe: its stream uses it under its own lock.
final class CacheEntry {
    /// The file names' stem: `key(for:)` of the URL.
    let name: String
    let dataURL: URL
    private(set) var sidecar: CacheSidecar
    /// The cache whose folder holds the files: new names are added there only through `addingToFolder`.
    private let cache: MediaCache
    private let folder: Int32
    private let fd: Int32
    /// The file system's block (`st_blksize`): holes are punched in whole blocks.
    private let blockSize: UInt64

    /// Opens the files of `url` (credentials already stripped) in `cache`'s folder, private to the user
    /// (0600); an entry that fails `isConsistent` starts over empty.
    init(url: String, cache: MediaCache) throws {
        name = Self.key(for: url)
        self.cache = cache
        folder = cache.folder
        dataURL = cache.directory.appendingPathComponent(name + ".data")
        fd = try Self.openDataFile(name + ".data", in: cache, path: dataURL.path)
        var info = stat()
        fstat(fd, &info)
        blockSize = UInt64(max(512, info.st_blksize))
        let saved = Self.readSidecar(name + ".json", in: folder)
        let keep = saved.map { Self.isConsistent($0, url: url, fileSize: UInt64(max(0, info.st_size))) } ?? false
        if !keep { ftruncate(fd, 0) }
        sidecar = keep ? saved! : CacheSidecar(url: url, lastUsed: 0)
        fchmod(fd, 0o600)  // a file left by an older version with wider modes
        sidecar.lastUsed = Date().timeIntervalSince1970
        save()
    }

    deinit { close(fd) }

    /// The data file, opened or created without following a link; a link (or other non-file) there is
    /// removed and a fresh file made in its place.
    private static func openDataFile(_ fileName: String, in cache: MediaCache, path: String) throws -> Int32 {
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, folder = cache.folder
        var fd = cache.addingToFolder { openat(folder, fileName, flags, 0o600) } ?? -1
        var info = stat()
        if fd < 0 ? errno == ELOOP : fstat(fd, &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
            if fd >= 0 { close(fd) }
            unlinkat(folder, fileName, 0)
            fd = cache.addingToFolder { openat(folder, fileName, flags | O_EXCL, 0o600) } ?? -1
        }
        guard fd >= 0 else { throw CacheError("cannot open \(path): \(String(cString: strerror(errno)))") }
        return fd
    }

    /// A sidecar's record, read without following a link and only from a regular file of sane size.
    static func readSidecar(_ fileName: String, in folder: Int32) -> CacheSidecar? {
        let fd = openat(folder, fileName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumSidecarBytes else { return nil }
        var data = Data(count: Int(info.st_size))
        let count = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count == data.count else { return nil }
        return try? JSONDecoder().decode(CacheSidecar.self, from: data)
    }

    /// Far more than the ranges of a file seeked through thousands of times.
    static let maximumSidecarBytes = 4 << 20

    /// A sidecar that names another URL, claims bytes beyond the data file's end, or is complete with a
    /// data file of another length was left by a crash or damaged: never serve it.
    static func isConsistent(_ sidecar: CacheSidecar, url: String, fileSize: UInt64) -> Bool {
        guard sidecar.url == url, fileSize >= sidecar.present.end else { return false }
        if let length = sidecar.length, sidecar.present.end > length { return false }
        return !sidecar.isComplete || fileSize == sidecar.length
    }

    /// A file name from the URL: 64-bit FNV-1a twice (two offsets), as hex; the sidecar keeps the URL
    /// and is checked on open, so a collision means a refetch, not wrong bytes.
    static func key(for url: String) -> String {
        func fnv(_ basis: UInt64) -> String {
            let hex = String(url.utf8.reduce(basis) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        return fnv(0xcbf2_9ce4_8422_2325) + fnv(0x84222325cbf29ce4)
    }

    var length: UInt64? { sidecar.length }
    var present: ByteRanges { sidecar.present }
    var isComplete: Bool { sidecar.isComplete }

    /// Starts over for a (new) version of the file.
    func reset(length: UInt64, etag: String?, lastModified: String?) {
        ftruncate(fd, 0)
        sidecar = CacheSidecar(url: sidecar.url, etag: etag, lastModified: lastModified, length: length,
                               lastUsed: sidecar.lastUsed)
        save()
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < bytes.count {
            let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            guard count > 0 else { throw CacheError("cannot write \(dataURL.path): \(String(cString: strerror(errno)))") }
            done += count
        }
        sidecar.present.insert(offset..<offset + UInt64(bytes.count))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int {
        max(0, pread(fd, buffer.baseAddress, buffer.count, off_t(offset)))
    }

    /// Gives the present bytes outside `kept` back to the disk. The sidecar stops claiming them before
    /// their blocks go (a crash in between leaves bytes unclaimed, never zeros claimed as the file's).
    func keepOnly(_ kept: Range<UInt64>) {
        var outside = sidecar.present
        outside.remove(kept)
        let dropped = outside.ranges
        guard !dropped.isEmpty else { return }
        for range in dropped { sidecar.present.remove(range) }
        save()
        for range in dropped.map(wholeBlocks) {
            quaver_punch_hole(fd, Int64(range.lowerBound), Int64(range.upperBound - range.lowerBound))
        }
    }

    /// `range` widened to the edges of its first and last blocks where no byte kept lies between: a hole
    /// frees only whole blocks, and each edge left inside a block would keep that block on the disk.
    private func wholeBlocks(_ range: Range<UInt64>) -> Range<UInt64> {
        let lower = range.lowerBound / blockSize * blockSize
        let upper = (range.upperBound + blockSize - 1) / blockSize * blockSize
        return (sidecar.present.byteCount(in: lower..<range.lowerBound) == 0 ? lower : range.lowerBound)
            ..< (sidecar.present.byteCount(in: range.upperBound..<upper) == 0 ? upper : range.upperBound)
    }

    /// Writes the sidecar atomically: a fresh 0600 temporary file (whatever was at its name is removed
    /// first, so a planted link is never written through), then renamed over the old one.
    func save() {
        guard let data = try? JSONEncoder().encode(sidecar) else { return }
        let temporary = name + ".json.new", folder = folder, name = name
        unlinkat(folder, temporary, 0)
        // The temporary file and the rename together: the folder's removal lists no name that a rename then brings back.
        cache.addingToFolder {
            let out = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard out >= 0 else { return }
            let written = data.withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
            close(out)
            if written == data.count { renameat(folder, temporary, folder, name + ".json") } else { unlinkat(folder, temporary, 0) }
        }
    }

    /// Forgets the file: the next play fetches it again.
    func discard() {
        unlinkat(folder, name + ".json", 0)
        unlinkat(folder, name + ".data", 0)
    }
}

struct CacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
