import CGLib
import CGStreamer

/// GstDiscoverer in its blocking mode (`gst_discoverer_discover_uri`): one file read on the calling
/// thread, for the one file a caller must know before it goes on. A queue of files is `Discoverer`'s work.
///
/// The blocking mode polls the discovery pipeline's bus itself (`gst_bus_timed_pop`, half a second at a
/// time) and runs no GLib main context. It holds its caller for as long as the read takes, which the
/// timeout does not always bound (a FIFO holds it in `open(2)`): call it from a thread that may wait.
public final class BlockingDiscoverer {
    private let discoverer: UnsafeMutablePointer<GstDiscoverer>

    /// - Parameter timeout: how long one file may take before it is given up (`gst_discoverer_new`).
    public init(timeout: Duration) throws {
        GStreamer.initialize()
        discoverer = try makeGstDiscoverer(timeout: timeout)
    }

    deinit { g_object_unref(discoverer) }

    /// What `uri` holds, or nil when it cannot be read within the timeout (or at all).
    public func discover(_ uri: String) -> DiscoveredMedia? {
        var error: UnsafeMutablePointer<GError>?
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        if let error { g_error_free(error) }  // the result says what went wrong; the text is not needed
        guard let info else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }  // gst_discoverer_info_unref is a macro
        return DiscoveredMedia(readable: info)
    }
}
