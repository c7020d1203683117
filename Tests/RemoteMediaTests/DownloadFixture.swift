import Foundation
import Glibc
import RemoteMedia
import TestSupport
import XCTest

/// A download into a private cache, its events collected.
final class DownloadRun {
    let cacheFolder: TemporaryDirectory
    let cache: MediaCache
    let download: RemoteDownload
    private let lock = NSLock()
    private var received: [RemoteDownloadEvent] = []

    init(_ url: String, options: DownloadOptions = DownloadOptions(retries: 1, timeout: 1, retryDelay: 0.1),
         capacity: UInt64 = 64 << 20, minimumFreeBytes: UInt64 = MediaCache.defaultMinimumFreeBytes) throws {
        cacheFolder = try TemporaryDirectory(prefix: "quaver-cache")
        cache = try MediaCache(directory: cacheFolder.url.appendingPathComponent("media"), capacityBytes: capacity,
                               minimumFreeBytes: minimumFreeBytes)
        var record: (RemoteDownloadEvent) -> Void = { _ in }
        download = RemoteDownload(url: url, cache: cache, options: options) { _, event in record(event) }
        record = { [lock] event in lock.withLock { self.received.append(event) } }
    }

    deinit { download.close() }

    var events: [RemoteDownloadEvent] { lock.withLock { received } }

    /// Starts the download and waits for it to fail; returns the failure and the seconds it took.
    func failure(within seconds: Double) -> (kind: RemoteFailureKind, text: String, seconds: Double)? {
        let started = Date()
        download.start()
        _ = eventually(timeout: seconds) { events.contains { if case .failed = $0 { return true } else { return false } } }
        for case .failed(let kind, let text) in events { return (kind, text, Date().timeIntervalSince(started)) }
        return nil
    }

    func completes(within seconds: Double) -> Bool {
        download.start()
        return eventually(timeout: seconds) { events.contains(.complete) }
    }

    /// Every file in the cache folder, and whether each present byte of each data file is the real file's.
    func cachedBytesAreReal(url: String, length: Int = TestServer.fileLength) -> Bool {
        guard let sidecar = try? Data(contentsOf: cache.sidecarFile(for: url)),
              let json = try? JSONSerialization.jsonObject(with: sidecar) as? [String: Any],
              let ranges = (json["present"] as? [String: Any])?["ranges"] as? [[Int]] else {
            return !FileManager.default.fileExists(atPath: cache.dataFile(for: url).path)
                || ((try? Data(contentsOf: cache.dataFile(for: url)))?.isEmpty ?? true)
        }
        guard let data = try? [UInt8](Data(contentsOf: cache.dataFile(for: url))) else { return ranges.isEmpty }
        for range in ranges where range.count == 2 {
            guard range[1] <= data.count, range[1] <= length else { return false }
            for offset in range[0]..<range[1] where data[offset] != UInt8(offset % 251) { return false }
        }
        return true
    }
}

/// A reader that keeps what it was pushed (pushed from the download thread or the reader's own).
final class RecordingSink: ByteSink, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [UInt8] = []
    var bytes: [UInt8] {
        get { lock.withLock { received } }
        set { lock.withLock { received = newValue } }
    }

    func push(_ bytes: UnsafeRawBufferPointer) { lock.withLock { received.append(contentsOf: bytes) } }
    func endOfStream() {}
}
