// RemoteMedia: http(s) files for the engine: the libcurl client and the download of one file into the
// private media cache while it plays. A wrapper: it owns every libcurl call; may import CCurl, PublicText
// and Foundation, never GStreamer or the core.
import EventLoop
import FoundationEssentials
import Glibc
import PublicText

/// What a download tells its owner; sent from its download thread.
public enum RemoteDownloadEvent: Equatable, Sendable {
    /// The length is known and bytes are coming: a reader may `attach`.
    case ready(size: UInt64)
    /// No length, Shoutcast/Icecast headers or a playlist: not cacheable, a stream player must play it.
    case live
    /// Bytes ahead of the read position, in percent of what playing needs to go on (100: enough).
    case buffering(Int)
    /// Every byte is on disk: the next item's download may begin.
    case complete
    /// More bytes are on disk (`figures`); at most four times a second, and once when complete.
    case progress
    /// Retries are used up, or retrying cannot help. The text names the URL without credentials.
    case failed(RemoteFailureKind, String)
}

/// Why a download failed, in the terms a player reports.
public enum RemoteFailureKind: Equatable, Sendable {
    case network, notFound, unreadable, other
}

/// Where a download's bytes go: a reader that asked with `needData` and waits for `push`.
/// Called with the download's lock held, from any thread: must not call back into the download.
public protocol ByteSink: AnyObject {
    func push(_ bytes: UnsafeRawBufferPointer)
    func endOfStream()
}

/// How a download talks to servers.
public struct DownloadOptions: Sendable {
    /// Attempts after a failed request before the download fails.
    public var retries: Int
    /// Seconds to connect, and the longest time without a byte once connected.
    public var timeout: Double
    /// Delay before the first retry; it doubles with each failure in a row.
    public var retryDelay: Double
    /// A proxy for every request (`http://host:port`); `nil`: the `http_proxy` family of variables.
    public var proxy: String?

    public init(retries: Int = 3, timeout: Double = 10, retryDelay: Double = 0.5, proxy: String? = nil) {
        self.retries = retries
        self.timeout = timeout
        self.retryDelay = retryDelay
        self.proxy = proxy
    }
}

/// A remote file read from the cache while a download thread fills it (play-while-downloading): a
/// readable, seekable byte source with a length.
///
///   download thread ── HTTP GET, Range from the first missing byte ──▶ CacheEntry (sparse file + sidecar)
///   reader (random access, any thread) ◀── ByteSink.push ── seekData / needData ── served from the entry
///
/// Nothing here waits for its owner. The reader's calls never block: a read that the entry cannot
/// serve yet is remembered and pushed by the download thread when its bytes arrive, and a seek to a part
/// far from the download cuts the request short and starts a new one there (Range).
/// Every field below `lock` is guarded by it.
public final class RemoteDownload: @unchecked Sendable {
    public let url: String
    let cache: MediaCache
    let options: DownloadOptions
    let report: (RemoteDownload, RemoteDownloadEvent) -> Void
    let lock = ConditionLock()

    var entry: CacheEntry?
    var sink: ByteSink?
    var started = false
    var closed = false
    var failed = false
    /// Set when a revalidation found a newer version, or the URL is a live stream: the entry is
    /// dropped once closed.
    var discardOnClose = false
    /// The download thread's session while a request runs (`wake` cuts it short).
    var activeSession: HTTPSession?
    var readySent = false
    /// appsrc's read position, and the length it waits for there, if it waits.
    var readOffset: UInt64 = 0
    var wanted: Int?
    /// Where the current request writes, and where a seek asked the next one to start.
    var downloadOffset: UInt64 = 0
    var restartAt: UInt64?
    var starving = false
    /// The cache had no room for the last piece: the request ended and the download waits (+Room).
    var waitingForRoom = false
    var reportedPercent = 100
    var bytesPerSecond = 32_000.0
    var bytesSinceSave = 0
    /// Bytes received from the server, failed requests retried, and when `.progress` was last reported
    /// (RemoteDownload+Figures).
    var bytesFetched: UInt64 = 0
    var retries = 0
    var lastProgressReport: Int64 = 0

    static let bufferSeconds = 2.0
    /// A seek this far past the download waits for it rather than opening a new request.
    /// How baseparse (MP3, AAC, FLAC parsers) seeks in pull mode (gstbaseparse.c, traced on 1.22):
    /// a target more than 20 s (TARGET_DIFFERENCE) past the last frame it parsed, without ACCURATE,
    /// goes straight to its byte estimate (time × bitrate): we open a Range request there and it
    /// reads one 64 KiB chunk, 2 s at 256 kbit/s. A nearer target, or any ACCURATE seek, is reached
    /// by parsing every byte from that frame on: going on with the linear download is then optimal.
    public static let nearAhead: UInt64 = 16 * 1024

    public init(url: String, cache: MediaCache, options: DownloadOptions,
                report: @escaping (RemoteDownload, RemoteDownloadEvent) -> Void) {
        self.url = url
        self.cache = cache
        self.options = options
        self.report = report
    }

    /// URLs the cache handles: http and https files. Playlists and HLS (`.m3u8`) are played by
    /// playbin's own source.
    public static func isCacheable(_ uri: String) -> Bool {
        guard let parts = URLComponents(string: uri), ["http", "https"].contains(parts.scheme?.lowercased()) else {
            return false
        }
        let path = parts.path.lowercased()
        return ![".m3u8", ".m3u", ".pls"].contains { path.hasSuffix($0) }
    }

    /// Starts the download thread (once; later calls do nothing).
    public func start() {
        guard lock.withLock({ () -> Bool in defer { started = true }; return !started }) else { return }
        NamedThread.start("quaver-download") { [self] in run() }
    }

    /// Stops the download soon (a blocked read is woken); the thread saves the entry as it leaves.
    public func close() {
        lock.withLock {
            closed = true
            sink = nil
            activeSession?.wake()
            lock.broadcast()
        }
    }

    /// Whether an `appsrc` attached now would get bytes: the length is known and nothing has failed.
    public var canServe: Bool { lock.withLock { readySent && !failed && !closed } }

    /// Whether every byte is on disk.
    public var isComplete: Bool { lock.withLock { entry?.isComplete ?? false } }

    /// Playback length, once playbin knows it: how many bytes make `bufferSeconds` of sound.
    public func setDuration(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        lock.withLock {
            guard seconds > 0, let length = entry?.length else { return }
            bytesPerSecond = Double(length) / seconds
        }
    }

    /// Makes `sink` the reader, reading from byte 0; `configure` gets the length first (under the lock,
    /// before any byte is pushed). Nothing happens once closed or before `ready`.
    public func attach(_ sink: ByteSink, configure: (UInt64) -> Void) {
        lock.withLock {
            guard !closed, let length = entry?.length else { return }
            configure(length)
            self.sink = sink
            readOffset = 0
            wanted = nil
        }
    }

    // MARK: Reader (any thread, never blocks)

    /// The reader wants `length` bytes at its position: pushed now if present, else once downloaded.
    public func needData(_ length: Int) {
        lock.withLock {
            wanted = length
            serveWanted()
            if wanted != nil, !starving {
                starving = true
                reportedPercent = 100
                updateBuffering()
            }
        }
    }

    /// The reader moves to `offset`; a missing part far from the download starts a new request there.
    public func seekData(_ offset: UInt64) -> Bool {
        lock.withLock { () -> Bool in
            readOffset = offset
            wanted = nil
            guard let entry, entry.present.availableEnd(from: offset) == offset, offset < entry.length ?? 0 else {
                return true
            }
            let downloadWillReach = activeSession != nil && offset >= downloadOffset
                && offset < downloadOffset + Self.nearAhead
            if !downloadWillReach {
                restartAt = offset
                activeSession?.wake()
                lock.broadcast()
            }
            return true
        }
    }

    // MARK: Serving (under lock)

    /// Pushes the bytes the reader waits for, if they are all there; end of stream at the end of the file.
    func serveWanted() {
        guard let length = wanted, let sink, let entry, let total = entry.length else { return }
        guard readOffset < total else {
            wanted = nil
            sink.endOfStream()
            return
        }
        let end = min(readOffset + UInt64(length), total)
        guard entry.present.covers(readOffset..<end) else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(end - readOffset), alignment: 8)
        defer { buffer.deallocate() }
        let count = entry.read(into: buffer, at: readOffset)
        readOffset += UInt64(count)
        wanted = nil
        if waitingForRoom { lock.broadcast() }
        sink.push(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }

    /// While the reader starves: how much of `bufferSeconds` is there ahead of it, reported in 10 % steps,
    /// and 100 once playing can go on (or the rest of the file is there).
    func updateBuffering() {
        guard starving, let entry, let total = entry.length else { return }
        let ahead = entry.present.availableEnd(from: readOffset) - readOffset
        let target = max(1, min(total - min(readOffset, total), UInt64(bytesPerSecond * Self.bufferSeconds)))
        let percent = Int(min(100, ahead * 100 / target))
        if percent >= 100 {
            starving = false
        } else if percent / 10 == reportedPercent / 10 {
            return
        }
        reportedPercent = percent
        report(self, .buffering(percent))
    }

    // MARK: Download thread

    private func run() {
        defer { finish() }
        let session: HTTPSession
        do {
            session = try HTTPSession(options: .init(timeout: options.timeout, proxy: options.proxy))
        } catch {
            fail(.network, "\(displayURL): \(error)")
            return
        }
        do {
            let opened = try cache.entry(for: url)
            let complete = lock.withLock { () -> Bool in
                entry = opened
                readySent = opened.isComplete
                return readySent
            }
            if complete {
                report(self, .ready(size: opened.length!))
                report(self, .complete)
                revalidate(opened, on: session)
                return
            }
        } catch {
            fail(.other, "\(displayURL): cache: \(error)")
            return
        }
        download(on: session)
    }

    /// The URL as error texts show it: login and secret query values masked, read as one URL (a value runs
    /// to its `&`, whatever it holds).
    var displayURL: String { PublicText.url(url) }

    private func finish() {
        lock.withLock {
            guard let entry else { return }
            cache.release(entry, keep: !discardOnClose)
        }
    }

    /// Fetches missing ranges until the file is complete or closed, retrying failures with a doubling
    /// delay. A failed request that left more bytes in the cache than ever before starts the count of
    /// failures in a row over; one that only wrote the same bytes again (a server that cuts every
    /// answer at the same place) does not, or the download would never end.
    private func download(on session: HTTPSession) {
        var failures = 0
        var mostPresent: UInt64 = 0
        while let request = lock.withLock({ nextRequest() }) {
            do {
                if try fetch(request, on: session) { failures = 0 }
                if lock.withLock({ waitingForRoom }) { waitForRoom() }
            } catch let failure as RemoteFailure {
                let present = lock.withLock { entry?.present.byteCount ?? 0 }
                if present > mostPresent { failures = 0 }
                mostPresent = max(mostPresent, present)
                failures += 1
                guard failures <= options.retries, !failure.isFinal else {
                    fail(failure.kind, "\(displayURL): \(failure.text)" + (failures > 1 ? " (after \(failures - 1) retries)" : ""))
                    return
                }
                let delay = options.retryDelay * pow(2, Double(failures - 1))
                lock.withLock {
                    retries += 1
                    _ = closed || lock.wait(seconds: delay)
                }
            } catch {
                fail(.other, "\(displayURL): cache: \(error)")
                return
            }
        }
    }

    private func fail(_ kind: RemoteFailureKind, _ text: String) {
        lock.withLock { failed = true }
        report(self, .failed(kind, text))
    }

    /// The next range to fetch, from where appsrc reads (or a seek asked); `nil` when done or closed. A file
    /// larger than the cache is fetched only ahead of the reader (what lies behind would push out what lies
    /// ahead); with all of that present, this waits for a seek.
    private func nextRequest() -> FetchRequest? {
        while !closed, let entry {
            guard let length = entry.length else { return FetchRequest(range: nil) }
            let from = restartAt ?? readOffset
            restartAt = nil
            let gap = fitsWhole(length) ? entry.present.firstGap(from: from, length: length)
                : entry.present.gapAhead(from: from, length: length)
            if let gap { return FetchRequest(range: gap) }
            if entry.isComplete { return nil }
            _ = lock.wait(seconds: 1)
        }
        return nil
    }
}
