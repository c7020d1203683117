import CGStreamer
import CGStreamerLibraries
import CGLib

/// An `appsrc` element that the application feeds (gstappsrc.h). In random-access mode
/// (`stream-type=random-access`) downstream may read at any offset: appsrc calls `seekData` with the
/// byte offset, then `needData` with a length, and waits for `push`. Both callbacks run on streaming
/// threads with appsrc's own lock released, so they may push at once or leave it to another thread.
public final class AppSource {
    public let element: Element

    /// Wraps `element` if it is an appsrc (`gst_app_src_get_type`), e.g. playbin's source for `appsrc://`.
    public init?(_ element: Element) {
        guard element.isInstance(of: quaver_gst_app_src_get_type()) else { return nil }
        self.element = element
    }

    private var appsrc: UnsafeMutablePointer<GstAppSrc> {
        UnsafeMutableRawPointer(element.pointer).assumingMemoryBound(to: GstAppSrc.self)
    }

    /// Random-access bytes of a known total `size` (`gst_app_src_set_stream_type`, `gst_app_src_set_size`).
    /// appsrc's `format` is left at its default, bytes: setting it once the source has started (the size may be
    /// known only then) is refused by GstBaseSrc with a critical warning.
    public func configureRandomAccess(size: UInt64) {
        quaver_gst_app_src_set_stream_type(appsrc, GST_APP_STREAM_TYPE_RANDOM_ACCESS)
        quaver_gst_app_src_set_size(appsrc, gint64(size))
    }

    /// Installs the callbacks (`gst_app_src_set_callbacks`); they hold `handler` until the element goes.
    public func setCallbacks(_ handler: AppSourceHandler) {
        var callbacks = GstAppSrcCallbacks()
        callbacks.need_data = { _, length, data in
            Unmanaged<AppSourceHandler>.fromOpaque(data!).takeUnretainedValue().needData(Int(length))
        }
        callbacks.seek_data = { _, offset, data in
            Unmanaged<AppSourceHandler>.fromOpaque(data!).takeUnretainedValue().seekData(UInt64(offset)) ? 1 : 0
        }
        quaver_gst_app_src_set_callbacks(appsrc, &callbacks, Unmanaged.passRetained(handler).toOpaque(),
                                  { data in Unmanaged<AppSourceHandler>.fromOpaque(data!).release() })
    }

    /// Copies `bytes` into a new buffer and queues it (`gst_buffer_new_allocate`, `gst_buffer_fill`,
    /// `gst_app_src_push_buffer`). Safe from any thread.
    public func push(_ bytes: UnsafeRawBufferPointer) {
        guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { return }
        gst_buffer_fill(buffer, 0, bytes.baseAddress, gsize(bytes.count))
        _ = quaver_gst_app_src_push_buffer(appsrc, buffer)
    }

    /// `gst_app_src_end_of_stream`.
    public func endOfStream() {
        _ = quaver_gst_app_src_end_of_stream(appsrc)
    }
}

/// What an appsrc asks of the application; called on streaming threads.
public final class AppSourceHandler {
    let needData: (Int) -> Void
    let seekData: (UInt64) -> Bool

    public init(needData: @escaping (Int) -> Void, seekData: @escaping (UInt64) -> Bool) {
        self.needData = needData
        self.seekData = seekData
    }
}
