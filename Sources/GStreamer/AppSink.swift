import CGStreamer
import CGStreamerLibraries
import CGLib

/// An `appsink` element the application takes samples from (gstappsink.h), without ever waiting for one.
public final class AppSink {
    public let element: Element

    /// Wraps `element` if it is an appsink (`gst_app_sink_get_type`).
    public init?(_ element: Element) {
        guard element.isInstance(of: quaver_gst_app_sink_get_type()) else { return nil }
        self.element = element
    }

    private var appsink: UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(element.pointer).assumingMemoryBound(to: GstAppSink.self)
    }

    /// The bytes of the oldest sample waiting, copied out; `nil` when none is waiting right now
    /// (`gst_app_sink_try_pull_sample` with no timeout, `gst_buffer_extract`). Any thread.
    public func takeWaiting() -> [UInt8]? {
        guard let sample = quaver_gst_app_sink_try_pull_sample(appsink, 0) else { return nil }
        defer { gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample) else { return [] }
        let size = Int(gst_buffer_get_size(buffer))
        return [UInt8](unsafeUninitializedCapacity: size) { bytes, count in
            count = Int(gst_buffer_extract(buffer, 0, bytes.baseAddress, gsize(size)))
        }
    }

    /// Every sample has been taken and the stream ended (`gst_app_sink_is_eos`).
    public var isDrained: Bool { quaver_gst_app_sink_is_eos(appsink) != 0 }
}
