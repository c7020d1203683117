import Foundation
import RemoteMedia

/// Reads a few bytes at a time from a remote file's download, waiting for them, for the WAV check that
/// runs before appsrc is attached (`RemoteFile`). It reads what wavparse would read next (the chunk
/// headers), so the cache then holds them for wavparse too. Runs on a thread of its own, never the loop.
final class ChunkHeaderReader: ByteSink, @unchecked Sendable {
    private let download: RemoteDownload
    /// Guards `received` and `ended`. `push` runs under the download's lock: nothing here calls into the
    /// download while holding this one, or the two would be taken in both orders.
    private let condition = NSCondition()
    private var received: [UInt8] = []
    private var ended = false
    /// Where the last read ended (this thread only).
    private var position: UInt64 = 0

    init(_ download: RemoteDownload) { self.download = download }

    /// Exactly `count` bytes at `offset`, or nil once the download failed or was closed. `inOrder`: the
    /// bytes up to `offset` are read first, in steps the download reaches without a new request (a read
    /// within `RemoteDownload.nearAhead` of it waits for it), as the tag demuxers reach what follows a tag.
    /// Otherwise a far offset opens a Range request there, as wavparse's own jump over the data would.
    func read(_ offset: UInt64, _ count: Int, inOrder: Bool) -> [UInt8]? {
        while inOrder, position < offset {
            guard fetch(position, Int(min(offset - position, RemoteDownload.nearAhead))) != nil else { return nil }
        }
        return fetch(offset, count)
    }

    private func fetch(_ offset: UInt64, _ count: Int) -> [UInt8]? {
        defer { position = offset + UInt64(count) }
        condition.withLock {
            received = []
            ended = false
        }
        _ = download.seekData(offset)
        download.needData(count)
        while true {
            let (bytes, done) = condition.withLock { () -> ([UInt8], Bool) in
                if received.count < count, !ended { _ = condition.wait(until: Date().addingTimeInterval(0.2)) }
                return (received, ended)
            }
            if bytes.count >= count { return Array(bytes.prefix(count)) }
            if done || !download.canServe { return nil }
        }
    }

    func push(_ bytes: UnsafeRawBufferPointer) {
        condition.withLock {
            received.append(contentsOf: bytes)
            condition.broadcast()
        }
    }

    func endOfStream() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }
}
