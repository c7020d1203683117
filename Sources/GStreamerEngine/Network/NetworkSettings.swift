import FoundationEssentials
import Logging
import RemoteMedia

extension GStreamerEngine.NetworkOptions {
    /// `[network]`: the play-while-downloading cache of `cacheSizeMB` in `cacheFolder()` (0 turns it off; a cache
    /// that cannot be made is said in the log and left out), and the retry settings for every network source.
    public static func with(cacheSizeMB: Int, in cacheFolder: () throws -> URL, retries: Int, connectTimeout: Double,
                            proxy: String, log: Logger) -> Self {
        var cache: MediaCache?
        if cacheSizeMB > 0 {
            do {
                cache = try MediaCache(directory: try cacheFolder(), capacityBytes: UInt64(cacheSizeMB) << 20)
            } catch {
                log.error("network tracks will not be cached: \(error)")
            }
        }
        return .init(cache: cache, retries: retries, connectTimeout: connectTimeout, proxy: proxy.isEmpty ? nil : proxy)
    }
}
