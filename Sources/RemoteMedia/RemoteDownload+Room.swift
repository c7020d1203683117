import Foundation

/// The cache's limit while a file downloads (MediaCache counts the open entries too). Each piece is stored
/// only once the cache has room for it; when it has none, the request ends and the download waits until
/// the reader has moved on, then gives back what this file holds away from the reader (a sliding window
/// for a file larger than the cache) and goes on from the first missing byte ahead of the reader.
/// Paused, the reader does not move: the download stays stopped at the limit. Every field used here is
/// guarded by `lock`.
extension RemoteDownload {
    /// Bytes kept just behind the reader when room is short: a parser that steps back a little finds them.
    static let keptBehindReader: UInt64 = 256 * 1024

    /// Free room a waiting download needs before it starts another request (a quarter of the cache, at
    /// most 16 MiB): fewer, longer requests than one per piece the reader takes.
    var roomToResume: UInt64 { min(cache.capacityBytes / 4, 16 << 20) }

    /// Whether a file of `length` bytes can be kept whole (otherwise only the part ahead of the reader is).
    func fitsWhole(_ length: UInt64) -> Bool { length <= cache.capacityBytes }

    /// Counts `count` bytes about to be stored (under lock); false when the cache is full, and the request
    /// should end (`waitingForRoom`). Throws when the disk is nearly full.
    func reserveRoom(for count: Int) throws -> Bool {
        guard let entry else { return false }
        if try cache.reserve(UInt64(count), for: entry) { return true }
        waitingForRoom = true
        return false
    }

    /// Waits until `roomToResume` bytes fit once what lies away from the reader is given back, or a seek
    /// or `close` comes. The reader's progress wakes it; a second's timeout sees other entries close.
    func waitForRoom() {
        lock.withLock {
            while !closed, restartAt == nil, !madeRoomToResume() {
                _ = lock.wait(until: Date().addingTimeInterval(1))
            }
            waitingForRoom = false
        }
    }

    /// The present bytes a full cache keeps of this file: from just behind the reader to the end of the
    /// bytes present from there on.
    func keptRange(of entry: CacheEntry) -> Range<UInt64> {
        let from = readOffset - min(readOffset, Self.keptBehindReader)
        return from..<max(from, entry.present.availableEnd(from: readOffset))
    }

    /// Gives back what lies outside `keptRange` if that leaves `roomToResume` free; false otherwise, and
    /// nothing is dropped (the sidecar is not rewritten for each read the reader makes).
    private func madeRoomToResume() -> Bool {
        guard let entry else { return true }
        let kept = keptRange(of: entry)
        guard cache.hasRoom(for: roomToResume, in: entry, holding: entry.present.byteCount(in: kept)) else { return false }
        entry.keepOnly(kept)
        return true
    }
}
