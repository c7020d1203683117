import CGStreamer
import CGStreamerLibraries
import CGLib

/// Lets the caller change the samples of the buffers that pass an element's pad, in place (a buffer probe,
/// `gst_pad_add_probe`). For each buffer the caller first says, from its timestamp, whether it changes it: only
/// then is the buffer made writable (`gst_mini_object_make_writable`, a copy when someone else holds it) and
/// mapped, so buffers it leaves alone pass untouched and uncopied. Runs on streaming threads; removed when the
/// guard is released.
public final class SampleRewriteProbe {
    /// What to do to a buffer starting at `pts` seconds (its presentation time), or `nil` to leave it alone.
    public typealias Rewriter = @Sendable (_ pts: Double) -> ((UnsafeMutableRawBufferPointer) -> Void)?
    private let pad: UnsafeMutablePointer<GstPad>
    private let id: gulong

    /// Fails if `element` has no static pad named `padName`.
    public init?(element: Element, padName: String, rewriter: @escaping Rewriter) {
        guard let pad = gst_element_get_static_pad(element.pointer, padName) else { return nil }
        self.pad = pad
        let box = Unmanaged.passRetained(RewriterBox(rewriter)).toOpaque()
        id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            SampleRewriteProbe.rewrite(info, Unmanaged<RewriterBox>.fromOpaque(data).takeUnretainedValue().rewriter)
            return GST_PAD_PROBE_OK
        }, box, { data in Unmanaged<RewriterBox>.fromOpaque(data!).release() })
    }

    deinit {
        gst_pad_remove_probe(pad, id)
        gst_object_unref(pad)
    }

    /// The pad's caps now (`gst_pad_get_current_caps`, `gst_caps_to_string`), `nil` before any were set. Any thread.
    public var currentCaps: String? {
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        guard let text = gst_caps_to_string(caps) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The interleaved raw audio the pad carries now (`gst_audio_info_from_caps`), `nil` before any caps were set
    /// or for anything else (planar audio, not audio). Any thread.
    public var currentAudio: RawAudioFormat? {
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        var info = GstAudioInfo()
        guard quaver_gst_audio_info_from_caps(&info, caps) != 0, info.layout == GST_AUDIO_LAYOUT_INTERLEAVED,
              let formatInfo = info.finfo, let name = quaver_gst_audio_format_to_string(formatInfo.pointee.format) else { return nil }
        return RawAudioFormat(format: String(cString: name), rate: Int(info.rate), channels: Int(info.channels))
    }

    /// Replaces the probe's buffer by a writable one (the same when nobody else holds it) and lets `change` at its bytes.
    private static func rewrite(_ info: UnsafeMutablePointer<GstPadProbeInfo>, _ rewriter: Rewriter) {
        guard let buffer = info.pointee.data?.assumingMemoryBound(to: GstBuffer.self),
              buffer.pointee.pts != UInt64.max, let change = rewriter(Double(buffer.pointee.pts) / 1e9) else { return }
        let object = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self)
        guard let writable = gst_mini_object_make_writable(object) else { return }
        info.pointee.data = UnsafeMutableRawPointer(writable)
        let target = UnsafeMutableRawPointer(writable).assumingMemoryBound(to: GstBuffer.self)
        var map = GstMapInfo()
        guard gst_buffer_map(target, &map, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 else { return }
        defer { gst_buffer_unmap(target, &map) }
        change(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }
}

/// Interleaved raw audio as a pad carries it: the sample format by GStreamer's name ("S16LE"), frames a second, channels.
public struct RawAudioFormat: Equatable, Sendable {
    public let format: String
    public let rate: Int
    public let channels: Int
}

private final class RewriterBox {
    let rewriter: SampleRewriteProbe.Rewriter
    init(_ rewriter: @escaping SampleRewriteProbe.Rewriter) { self.rewriter = rewriter }
}
