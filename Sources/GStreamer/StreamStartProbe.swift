import CGStreamer
import CGLib

/// Calls back when a new stream's STREAM_START event reaches an element's sink pad (a downstream event
/// probe, `gst_pad_add_probe`): the moment from which everything that passes belongs to the new stream,
/// a gapless successor included. The bus's STREAM_START message comes later, once the sink has it too,
/// after the element may already have handled the new stream's first buffers.
/// The callback runs on streaming threads; the probe is removed when the guard is released.
public final class StreamStartProbe {
    private let pad: UnsafeMutablePointer<GstPad>
    private let id: gulong

    /// Fails if `element` has no static "sink" pad.
    public init?(element: Element, started: @escaping @Sendable () -> Void) {
        guard let pad = gst_element_get_static_pad(element.pointer, "sink") else { return nil }
        self.pad = pad
        let box = Unmanaged.passRetained(StartCallback(started)).toOpaque()
        id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let data,
                  let event = info.pointee.data?.assumingMemoryBound(to: GstEvent.self),
                  event.pointee.type == GST_EVENT_STREAM_START else { return GST_PAD_PROBE_OK }
            Unmanaged<StartCallback>.fromOpaque(data).takeUnretainedValue().started()
            return GST_PAD_PROBE_OK
        }, box, { data in Unmanaged<StartCallback>.fromOpaque(data!).release() })
    }

    deinit {
        gst_pad_remove_probe(pad, id)
        gst_object_unref(pad)
    }
}

private final class StartCallback {
    let started: @Sendable () -> Void
    init(_ started: @escaping @Sendable () -> Void) { self.started = started }
}
