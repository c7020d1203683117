import Glibc
import GStreamer
import PlayerCore
import RemoteMedia

/// Playback health from the engine's side: the downloaded parts of the current remote file in playing time
/// (`.buffered`, sent on the download's progress, which comes a few times a second at most), and the
/// figures `quaver stats` shows.
extension GStreamerEngine {
    /// The current item's downloaded parts, once its length is known (bytes map to time linearly: exact for
    /// a constant bitrate, an estimate for a variable one, as baseparse's own seek estimate is).
    func reportBufferedRanges() {
        guard let current, let remote = state.loaded.remote, remote.item.id == current.id, let duration = reported.duration
        else { return }
        let figures = remote.file.figures
        guard let length = figures.length, length > 0 else { return }
        let spans = figures.present.map { range in
            TimeSpan(start: duration * Self.fraction(range.lowerBound, of: length),
                     end: duration * Self.fraction(range.upperBound, of: length))
        }
        emit(.buffered(current.id, spans))
    }

    /// Bytes from the download (or the local file's size), the average bitrate, and the decoder playbin
    /// chose (asked of the pipeline, within the same bound as any query).
    public func statistics() -> DeliveryStatistics? {
        guard let current else { return nil }
        var statistics = DeliveryStatistics()
        if let remote = state.loaded.remote, remote.item.id == current.id {
            let figures = remote.file.figures
            statistics.bytesFetched = figures.fetched
            statistics.bytesPresent = figures.present.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
            statistics.bytesTotal = figures.length
            statistics.retries = figures.retries
        } else if let size = Self.localFileSize(current.uri) {
            statistics.bytesPresent = size
            statistics.bytesTotal = size
        }
        if let bytes = statistics.bytesTotal, let duration = reported.duration ?? query({ $0.queryDuration() }) {
            statistics.bitrate = Self.bitrate(bytes: bytes, over: duration)
        }
        statistics.decoder = query { $0.factoryNames(ofKlassWords: ["Decoder", "Audio"]).first }
        return statistics
    }

    /// `part / whole` within 0…1, so a product with a duration cannot overflow whatever a file claims.
    private static func fraction(_ part: UInt64, of whole: UInt64) -> Double {
        min(1, max(0, Double(part) / Double(whole)))
    }

    /// Bits per second on average; nil for a length of no time or a figure no file has (a file may claim a
    /// playing time of a nanosecond, and `Int(_:)` traps on a Double past its range).
    static func bitrate(bytes: UInt64, over duration: Duration) -> Int? {
        let seconds = duration / .seconds(1)
        guard seconds > 0 else { return nil }
        let bitsPerSecond = (Double(bytes) * 8 / seconds).rounded()
        return bitsPerSecond.isFinite && bitsPerSecond <= Double(UInt32.max) ? Int(bitsPerSecond) : nil
    }

    private static func localFileSize(_ uri: String) -> UInt64? {
        var info = stat()
        guard uri.hasPrefix("file:"), let path = localPath(fileURI: uri), stat(path, &info) == 0 else { return nil }
        return UInt64(max(0, info.st_size))
    }
}
