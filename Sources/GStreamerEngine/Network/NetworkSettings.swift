import FoundationEssentials
import Logging
import RemoteMedia

extension GStreamerEngine.NetworkOptions {
    /// `[network]`: the play-while-downloading cache of `cacheSizeMB` in `$XDG_CACHE_HOME/quaver/media`, and the retry
    /// settings for every network source. Without a cache (0 turns it off; one that cannot be made is said in the
    /// log) remote files still come through our own download, into a scratch cache that keeps nothing (`MediaCache.scratch`,
    /// in `scratchRoot`): left to playbin's souphttpsrc, a file whose track changed mid-request could crash the
    /// daemon (docs/platform.md, "souphttpsrc stopped mid-request").
    public static func with(cacheSizeMB: Int, retries: Int, connectTimeout: Double, proxy: String, log: Logger,
                            scratchRoot: URL = FileManager.default.temporaryDirectory) -> Self {
        var cache: MediaCache?
        if cacheSizeMB > 0 {
            do {
                cache = try MediaCache(directory: try MediaCache.standardFolder(), capacityBytes: UInt64(cacheSizeMB) << 20)
            } catch {
                log.error("network tracks will not be cached: \(error)")
            }
        }
        if cache == nil { cache = scratchCache(in: scratchRoot, log: log) }
        return .init(cache: cache, retries: retries, connectTimeout: connectTimeout, proxy: proxy.isEmpty ? nil : proxy)
    }

    /// What a scratch cache may hold at once: the file playing (a longer one is fetched only ahead of the
    /// reader) and the next one fetched ahead.
    static let scratchCapacityBytes: UInt64 = 256 << 20

    private static func scratchCache(in root: URL, log: Logger) -> MediaCache? {
        do {
            return try MediaCache.scratch(capacityBytes: scratchCapacityBytes, in: root)
        } catch {
            log.error("network files will be left to GStreamer's own source: \(error)")
            return nil
        }
    }
}
