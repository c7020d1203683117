import CGStreamer
import CGLib
import CShims
import Synchronization

/// Rewrites the number-valued tags `names` in every TAG event that reaches an element's sink pad, and sends
/// tags of the caller's into the element each time a new stream has passed through it (once its STREAM_START
/// reaches the element's source pad, so they come after it, as the new stream's own would). Two downstream
/// event probes (`gst_pad_add_probe`); the callbacks run on streaming threads; removed when released.
///
/// For an element that keeps what tags told it across streams (`rgvolume` forgets only at EOS, which a
/// gapless switch does not send): the tags sent at each start say what holds until the stream says more.
public final class StreamTagsProbe {
    private let sinkPad: UnsafeMutablePointer<GstPad>
    private let sourcePad: UnsafeMutablePointer<GstPad>
    private let sinkProbe: gulong
    private let sourceProbe: gulong

    /// `tagsArrived` gets the values of `names` that a TAG event carries (only events with at least one) and
    /// returns those it should carry instead; `streamStarted` returns the values to send in at each start.
    /// Fails if `element` lacks a static "sink" or "src" pad.
    public init?(element: Element, names: [String], streamStarted: @escaping @Sendable () -> [String: Double],
                 tagsArrived: @escaping @Sendable ([String: Double]) -> [String: Double]) {
        guard let sink = gst_element_get_static_pad(element.pointer, "sink") else { return nil }
        guard let source = gst_element_get_static_pad(element.pointer, "src") else {
            gst_object_unref(sink)
            return nil
        }
        sinkPad = sink
        sourcePad = source
        let rewriter = TagRewriter(names: names, sinkPad: sink, streamStarted: streamStarted, tagsArrived: tagsArrived)
        let release: GDestroyNotify = { data in Unmanaged<TagRewriter>.fromOpaque(data!).release() }
        sinkProbe = gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let data, let event = TagRewriter.event(info), event.pointee.type == GST_EVENT_TAG else {
                return GST_PAD_PROBE_OK
            }
            Unmanaged<TagRewriter>.fromOpaque(data).takeUnretainedValue().rewrite(event, in: info)
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(rewriter).toOpaque(), release)
        sourceProbe = gst_pad_add_probe(source, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let data, let event = TagRewriter.event(info), event.pointee.type == GST_EVENT_STREAM_START else {
                return GST_PAD_PROBE_OK
            }
            Unmanaged<TagRewriter>.fromOpaque(data).takeUnretainedValue().sendStartTags()
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(rewriter).toOpaque(), release)
    }

    deinit {
        gst_pad_remove_probe(sinkPad, sinkProbe)
        gst_pad_remove_probe(sourcePad, sourceProbe)
        gst_object_unref(sinkPad)
        gst_object_unref(sourcePad)
    }
}

/// What both probes share; holds a reference of its own to the sink pad it sends into, so it outlives
/// neither probe's last call (each probe's destroy notify releases it).
private final class TagRewriter: @unchecked Sendable {
    let names: [String]
    let sinkPad: UnsafeMutablePointer<GstPad>
    let streamStarted: @Sendable () -> [String: Double]
    let tagsArrived: @Sendable ([String: Double]) -> [String: Double]
    private struct Sending {
        /// The sequence number of the event we sent last, which the sink probe lets through as it is.
        var seqnum: UInt32?
        /// While our event is on its way. If nothing takes it in the element, it goes on through the source
        /// pad, which first sends the STREAM_START not yet delivered there: the source probe would send again,
        /// forever (measured: a stack overflow with no `rgvolume` to take the tags).
        var inFlight = false
    }
    private let sending = Mutex(Sending())

    init(names: [String], sinkPad: UnsafeMutablePointer<GstPad>, streamStarted: @escaping @Sendable () -> [String: Double],
         tagsArrived: @escaping @Sendable ([String: Double]) -> [String: Double]) {
        self.names = names
        self.sinkPad = sinkPad
        self.streamStarted = streamStarted
        self.tagsArrived = tagsArrived
        gst_object_ref(sinkPad)
    }

    deinit { gst_object_unref(sinkPad) }

    static func event(_ info: UnsafeMutablePointer<GstPadProbeInfo>) -> UnsafeMutablePointer<GstEvent>? {
        info.pointee.data?.assumingMemoryBound(to: GstEvent.self)
    }

    /// Replaces the event by a copy whose `names` are what `tagsArrived` says (same scope and seqnum).
    func rewrite(_ event: UnsafeMutablePointer<GstEvent>, in info: UnsafeMutablePointer<GstPadProbeInfo>) {
        let seqnum = gst_event_get_seqnum(event)
        guard sending.withLock({ $0.seqnum }) != seqnum else { return }
        var parsed: UnsafeMutablePointer<GstTagList>?
        gst_event_parse_tag(event, &parsed)
        guard let list = parsed else { return }
        var found: [String: Double] = [:]
        for name in names {
            var value = 0.0
            if gst_tag_list_get_double(list, name, &value) != 0 { found[name] = value }
        }
        guard !found.isEmpty, let copy = gst_tag_list_copy(list) else { return }
        for name in names { gst_tag_list_remove_tag(copy, name) }
        Self.add(tagsArrived(found), to: copy)
        gst_tag_list_set_scope(copy, gst_tag_list_get_scope(list))
        guard let replacement = gst_event_new_tag(copy) else { return }  // takes the copy
        gst_event_set_seqnum(replacement, seqnum)
        gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
        info.pointee.data = UnsafeMutableRawPointer(replacement)
    }

    /// A stream-scope TAG event with `streamStarted()`'s values into the sink pad (`gst_pad_send_event`
    /// takes the event), on the streaming thread that carries the new stream.
    func sendStartTags() {
        guard sending.withLock({ !$0.inFlight }) else { return }
        let values = streamStarted()
        guard !values.isEmpty, let list = gst_tag_list_new_empty() else { return }
        Self.add(values, to: list)
        gst_tag_list_set_scope(list, GST_TAG_SCOPE_STREAM)
        guard let event = gst_event_new_tag(list) else { return }
        let seqnum = gst_event_get_seqnum(event)
        sending.withLock { $0 = Sending(seqnum: seqnum, inFlight: true) }
        _ = gst_pad_send_event(sinkPad, event)
        sending.withLock { $0.inFlight = false }
    }

    /// `gst_tag_list_add_value` (GST_TAG_MERGE_REPLACE) of each value as a `gdouble`.
    private static func add(_ values: [String: Double], to list: UnsafeMutablePointer<GstTagList>) {
        for (name, number) in values {
            var value = GValue()
            g_value_init(&value, quaver_g_type_double())
            g_value_set_double(&value, number)
            gst_tag_list_add_value(list, GST_TAG_MERGE_REPLACE, name, &value)
            g_value_unset(&value)
        }
    }
}
