import CGStreamer
import CGLib
import Synchronization

/// Cuts the first seconds off a stream passing an element's pad, to the sample: the stream's SEGMENT is moved to
/// start (and count its time) that much later, and its buffers are clipped to it (`gst_audio_buffer_clip`), so the
/// first sample that passes is the one at the cut, at the running time where the stream began. A crossfade's
/// incoming track uses it: its first seconds were heard already, mixed into the outgoing one
/// (docs/ARCHITECTURE.md, "Crossfade"). Runs on streaming threads; removed when the guard is released.
public final class LeadingCutProbe {
    /// Asked at each STREAM_START: the seconds to cut from that stream, or `nil` to leave it whole.
    public typealias Cut = @Sendable () -> Double?
    private let pad: UnsafeMutablePointer<GstPad>
    private let id: gulong

    /// Fails if `element` has no static pad named `padName`.
    public init?(element: Element, padName: String, cut: @escaping Cut) {
        guard let pad = gst_element_get_static_pad(element.pointer, padName) else { return nil }
        self.pad = pad
        let box = Unmanaged.passRetained(CutState(cut)).toOpaque()
        let types = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        id = gst_pad_add_probe(pad, types, { pad, info, data in
            guard let pad, let info, let data else { return GST_PAD_PROBE_OK }
            return Unmanaged<CutState>.fromOpaque(data).takeUnretainedValue().pass(info, on: pad)
        }, box, { data in Unmanaged<CutState>.fromOpaque(data!).release() })
    }

    deinit {
        gst_pad_remove_probe(pad, id)
        gst_object_unref(pad)
    }
}

/// The cut asked for at the last STREAM_START, and the moved segment while buffers are still clipped to it.
private final class CutState {
    let cut: LeadingCutProbe.Cut
    private struct Pending { var seconds: Double?; var segment: GstSegment? }
    private let pending = Mutex(Pending())

    init(_ cut: @escaping LeadingCutProbe.Cut) { self.cut = cut }

    func pass(_ info: UnsafeMutablePointer<GstPadProbeInfo>, on pad: UnsafeMutablePointer<GstPad>) -> GstPadProbeReturn {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 { return clip(info, on: pad) }
        guard let event = info.pointee.data?.assumingMemoryBound(to: GstEvent.self) else { return GST_PAD_PROBE_OK }
        if event.pointee.type == GST_EVENT_STREAM_START {
            let seconds = cut().flatMap { $0 > 0 ? $0 : nil }
            pending.withLock { $0 = Pending(seconds: seconds, segment: nil) }
        } else if event.pointee.type == GST_EVENT_SEGMENT {
            moveStart(of: event, info)
        }
        return GST_PAD_PROBE_OK
    }

    /// Replaces the stream's first SEGMENT by one starting at the cut (same seqnum, as a rewritten event keeps it).
    private func moveStart(of event: UnsafeMutablePointer<GstEvent>, _ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        guard let seconds = pending.withLock({ state in defer { state.seconds = nil }; return state.seconds }) else { return }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard var moved = segment?.pointee, moved.format == GST_FORMAT_TIME else { return }
        // Rounded up: the clip counts whole samples from the segment's start down, so a start a fraction of a
        // nanosecond early would keep the sample before the cut (measured: 12 345 frames cut as 12 344).
        let nanoseconds = guint64((seconds * 1e9).rounded(.up))
        moved.start += nanoseconds
        moved.time += nanoseconds
        moved.position = moved.start
        guard let replacement = gst_event_new_segment(&moved) else { return }
        gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
        gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
        info.pointee.data = UnsafeMutableRawPointer(replacement)
        pending.withLock { $0.segment = moved }
    }

    /// Clips a buffer to the moved segment; once one passes whole, the stream is left alone.
    private func clip(_ info: UnsafeMutablePointer<GstPadProbeInfo>, on pad: UnsafeMutablePointer<GstPad>) -> GstPadProbeReturn {
        guard var segment = pending.withLock({ $0.segment }),
              let buffer = info.pointee.data?.assumingMemoryBound(to: GstBuffer.self),
              let audio = Self.audioInfo(of: pad) else { return GST_PAD_PROBE_OK }
        let size = gst_buffer_get_size(buffer)
        guard let kept = gst_audio_buffer_clip(buffer, &segment, audio.rate, audio.bpf) else {
            info.pointee.data = nil  // clip released it
            return GST_PAD_PROBE_HANDLED
        }
        if gst_buffer_get_size(kept) == size { pending.withLock { $0.segment = nil } }
        info.pointee.data = UnsafeMutableRawPointer(kept)
        return GST_PAD_PROBE_OK
    }

    private static func audioInfo(of pad: UnsafeMutablePointer<GstPad>) -> GstAudioInfo? {
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        var info = GstAudioInfo()
        return gst_audio_info_from_caps(&info, caps) != 0 ? info : nil
    }
}
