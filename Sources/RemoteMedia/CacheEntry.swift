import Foundation
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

/// One cached file: a sparse data file written at the offsets downloaded, and its sidecar.
/// Not thread-safe: its stream uses it under its own lock.
final class CacheEntry {
    let dataURL: URL
    let sidecarURL: URL
    private(set) var sidecar: CacheSidecar
    private let fd: Int32

    /// Opens the files of `url` (credentials already stripped) in `directory`, private to the user (0600);
    /// an entry that fails `isConsistent` starts over empty.
    init(url: String, directory: URL) throws {
        let name = Self.key(for: url)
        dataURL = directory.appendingPathComponent(name + ".data")
        sidecarURL = directory.appendingPathComponent(name + ".json")
        let saved = (try? Data(contentsOf: sidecarURL)).flatMap { try? JSONDecoder().decode(CacheSidecar.self, from: $0) }
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: dataURL.path)[.size] as? UInt64) ?? nil
        let keep = saved.map { Self.isConsistent($0, url: url, fileSize: fileSize ?? 0) } ?? false
        sidecar = keep ? saved! : CacheSidecar(url: url, lastUsed: 0)
        fd = open(dataURL.path, O_RDWR | O_CREAT | O_CLOEXEC | (keep ? 0 : O_TRUNC), 0o600)
        guard fd >= 0 else { throw CacheError("cannot open \(dataURL.path): \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)  // a file left by an older version with wider modes
        sidecar.lastUsed = Date().timeIntervalSince1970
        save()
    }

    deinit { close(fd) }

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
        func fnv(_ basis: UInt64) -> UInt64 {
            url.utf8.reduce(basis) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        return String(format: "%016llx%016llx", fnv(0xcbf2_9ce4_8422_2325), fnv(0x84222325cbf29ce4))
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

    /// Writes the sidecar atomically (a 0600 temporary file, then rename).
    func save() {
        guard let data = try? JSONEncoder().encode(sidecar) else { return }
        let temporary = sidecarURL.path + ".new"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { return }
        let written = data.withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
        close(out)
        if written == data.count { rename(temporary, sidecarURL.path) } else { unlink(temporary) }
    }

    /// Forgets the file: the next play fetches it again.
    func discard() {
        try? FileManager.default.removeItem(at: sidecarURL)
        try? FileManager.default.removeItem(at: dataURL)
    }
}

struct CacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
