import Foundation
import Glibc

/// Remote files kept on disk while they play, so that they resume and replay without the network.
/// Entries are named by a hash of their URL without credentials (`CacheEntry`); the total of present bytes is kept under
/// `capacityBytes` by removing the least recently played entries that no stream has open.
public final class MediaCache: @unchecked Sendable {
    public let directory: URL
    public let capacityBytes: UInt64
    private let lock = NSLock()
    private var open: Set<String> = []

    /// Creates `directory` if needed, e.g. `$XDG_CACHE_HOME/quaver/media`, private to the user (0700,
    /// tightened if it exists with wider modes: it holds what the user listens to).
    public init(directory: URL, capacityBytes: UInt64) throws {
        self.directory = directory
        self.capacityBytes = capacityBytes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
    }

    /// The data file of `url`, for tests and tools.
    public func dataFile(for url: String) -> URL {
        directory.appendingPathComponent(CacheEntry.key(for: RemoteURL.withoutCredentials(url)) + ".data")
    }

    /// The sidecar of `url`, for tests and tools.
    public func sidecarFile(for url: String) -> URL {
        directory.appendingPathComponent(CacheEntry.key(for: RemoteURL.withoutCredentials(url)) + ".json")
    }

    /// The entry of `url`, named and recorded without its credentials.
    func entry(for url: String) throws -> CacheEntry {
        let key = RemoteURL.withoutCredentials(url)
        lock.withLock { _ = open.insert(key) }
        return try CacheEntry(url: key, directory: directory)
    }

    /// Saves the entry and, now that it is closed, makes room.
    func release(_ entry: CacheEntry) {
        entry.save()
        lock.withLock { _ = open.remove(entry.sidecar.url) }
        evict()
    }

    /// Removes least recently used entries, oldest first, until the present bytes fit.
    func evict() {
        lock.withLock {
            let sidecars = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil))?
                .filter { $0.pathExtension == "json" } ?? []
            var entries = sidecars.compactMap { url -> (URL, CacheSidecar)? in
                guard let data = try? Data(contentsOf: url) else { return nil }
                return (try? JSONDecoder().decode(CacheSidecar.self, from: data)).map { (url, $0) }
            }
            var total = entries.reduce(0) { $0 + $1.1.present.byteCount }
            entries.sort { $0.1.lastUsed < $1.1.lastUsed }
            for (sidecarURL, sidecar) in entries where total > capacityBytes && !open.contains(sidecar.url) {
                try? FileManager.default.removeItem(at: sidecarURL)
                try? FileManager.default.removeItem(at: sidecarURL.deletingPathExtension().appendingPathExtension("data"))
                total -= sidecar.present.byteCount
            }
        }
    }
}
