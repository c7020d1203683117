import EventLoop

/// What a download did so far, for the player's statistics (`quaver stats`) and its downloaded ranges.
public struct DownloadFigures: Equatable, Sendable {
    /// Bytes received from the server by this download (a file served from the cache received none).
    public var fetched: UInt64
    /// The parts of the file on disk, as byte ranges, sorted.
    public var present: [Range<UInt64>]
    /// The file's length, once the server said it.
    public var length: UInt64?
    /// Failed requests that were tried again.
    public var retries: Int
}

extension RemoteDownload {
    /// `.progress` is reported at most this often (seconds), and once more when the file is complete.
    static let progressInterval = 0.25

    /// The figures now (any thread).
    public var figures: DownloadFigures {
        lock.withLock {
            DownloadFigures(fetched: bytesFetched, present: entry?.present.ranges ?? [], length: entry?.length,
                            retries: retries)
        }
    }

    /// Counts bytes just stored and reports `.progress` if the last report is old enough (under lock).
    func noteStored(_ count: Int, complete: Bool) {
        bytesFetched += UInt64(count)
        let now = EventLoop.monotonicMicroseconds
        guard complete || Double(now - lastProgressReport) >= Self.progressInterval * 1_000_000 else { return }
        lastProgressReport = now
        report(self, .progress)
    }
}
