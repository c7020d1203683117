import EventLoop
import FoundationEssentials
import Glibc
import GStreamer
import PlayerCore
import RemoteMedia

extension GStreamerEngine {
    /// How remote items are fetched.
    public struct NetworkOptions: Sendable {
        /// Where http and https files are kept while they play; `nil` leaves every remote URI to playbin's
        /// own source (no cache, no resume).
        public var cache: MediaCache?
        /// Attempts after a failed request before the item fails (config `network.retries`).
        public var retries: Int
        /// Seconds to wait for a connection or for data (config `network.connect-timeout-seconds`).
        public var connectTimeout: Double
        /// Delay before the first retry; it doubles with each failure in a row.
        public var retryDelay: Double
        /// A proxy for every network source, cached or not (config `network.proxy`); `nil` leaves it to
        /// the `http_proxy`, `https_proxy` and `no_proxy` variables, which both sources read.
        public var proxy: String?

        public init(cache: MediaCache? = nil, retries: Int = 3, connectTimeout: Double = 10, retryDelay: Double = 0.5,
                    proxy: String? = nil) {
            self.cache = cache
            self.retries = retries
            self.connectTimeout = connectTimeout
            self.retryDelay = retryDelay
            self.proxy = proxy
        }

        var download: DownloadOptions {
            DownloadOptions(retries: retries, timeout: connectTimeout, retryDelay: retryDelay, proxy: proxy)
        }
    }

    /// A cached remote file for `item` if the cache handles its URI; its events reach the loop thread.
    func remoteFile(for item: EngineItem) -> RemoteFile? {
        guard let cache = network.cache, RemoteFile.isCacheable(item.uri) else { return nil }
        return RemoteFile(url: item.uri, cache: cache, options: network.download) { [weak self] file, event in
            EventLoop.main.post { self?.apply(.remoteFile(event, file)) }
        }
    }

    /// The next item's file downloads ahead (gapless from the cache, and offline later), but only once
    /// the current one needs the network no more: a local file, or a cached one with all its bytes. On
    /// a slow link the two would share it and the current one would starve; a radio stream never ends.
    /// The same URL twice in a row (loop-track) is left to playbin's own source: one cache entry is
    /// written by one download at a time.
    func prepareRemote(for item: EngineItem?) -> RemoteFile? {
        guard let item, item.uri != state.loaded.remote?.item.uri else { return nil }
        return remoteFile(for: item)
    }

    func startPrefetchIfIdle() {
        let loaded = state.loaded
        let idle = loaded.remote.map { $0.file.isComplete } ?? (loaded.playbinURI?.hasPrefix("file:") ?? false)
        if idle { streaming.preparedRemote?.start() }
    }

    /// playbin's `source-setup` (any thread): our appsrc gets the remote file's bytes; playbin's own
    /// http source gets the configured retries and timeout (souphttpsrc `retries`, `timeout`).
    static func setUpSource(_ source: Element, serving file: @autoclosure () -> RemoteFile?, network: NetworkOptions) {
        if let appSource = AppSource(source) {
            file()?.attach(appSource)
            return
        }
        if source.hasProperty("retries") { source.set("retries", "\(network.retries)") }
        if source.hasProperty("timeout") { source.set("timeout", "\(Int(network.connectTimeout.rounded(.up)))") }
    }
}
