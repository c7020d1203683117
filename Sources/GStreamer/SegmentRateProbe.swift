import CGStreamer
import CGLib

/// Gives every SEGMENT event that reaches an element's sink pad a playback rate chosen by the caller
/// (a downstream event probe, `gst_pad_add_probe`). A rate set this way needs no seek: playbin starts
/// each new stream (a load, a gapless successor) with a rate-1 segment, and a flushing seek to apply
/// the rate there would discard what the sink still holds of the previous track.
/// The probe runs on streaming threads; it is removed when the guard is released.
public final class SegmentRateProbe {
    private let pad: UnsafeMutablePointer<GstPad>
    private let id: gulong

    /// `rate` returns the rate a segment should have; it runs on streaming threads. Fails if `element`
    /// has no static "sink" pad.
    public init?(element: Element, rate: @escaping @Sendable () -> Double) {
        guard let pad = gst_element_get_static_pad(element.pointer, "sink") else { return nil }
        self.pad = pad
        let box = Unmanaged.passRetained(RateSource(rate)).toOpaque()
        id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            let wanted = Unmanaged<RateSource>.fromOpaque(data).takeUnretainedValue().rate()
            SegmentRateProbe.rewrite(info, to: wanted)
            return GST_PAD_PROBE_OK
        }, box, { data in Unmanaged<RateSource>.fromOpaque(data!).release() })
    }

    deinit {
        gst_pad_remove_probe(pad, id)
        gst_object_unref(pad)
    }

    /// Replaces a SEGMENT event whose rate differs by a copy with `rate` (same seqnum, as a rewritten
    /// event must keep it: `gst_event_set_seqnum`).
    private static func rewrite(_ info: UnsafeMutablePointer<GstPadProbeInfo>, to rate: Double) {
        guard let event = info.pointee.data?.assumingMemoryBound(to: GstEvent.self),
              event.pointee.type == GST_EVENT_SEGMENT else { return }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard var copy = segment?.pointee, copy.rate != rate else { return }
        copy.rate = rate
        guard let replacement = gst_event_new_segment(&copy) else { return }
        gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
        gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
        info.pointee.data = UnsafeMutableRawPointer(replacement)
    }
}

private final class RateSource {
    let rate: @Sendable () -> Double
    init(_ rate: @escaping @Sendable () -> Double) { self.rate = rate }
}
