import CGStreamer
import CGStreamerLibraries
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
    /// `shift`: the running time the streams after a cut one start too late by. Playbin gives each stream the
    /// running time where the one before it ended in its own, uncut segment, so every later stream would wait
    /// (silent) for the time cut (measured: 6–6.5 s of silence after each overlap from the second on, crossfade
    /// 6 s). `shiftAfterThisStream` joins it at the next STREAM_START; a flush, or a segment of base 0 (a new
    /// load), starts running time again at 0.
    private struct Pending {
        var seconds: Double?
        var segment: GstSegment?
        var shift: guint64 = 0
        var shiftAfterThisStream: guint64 = 0
    }
    private let pending = Mutex(Pending())

    init(_ cut: @escaping LeadingCutProbe.Cut) { self.cut = cut }

    func pass(_ info: UnsafeMutablePointer<GstPadProbeInfo>, on pad: UnsafeMutablePointer<GstPad>) -> GstPadProbeReturn {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 { return clip(info, on: pad) }
        guard let event = info.pointee.data?.assumingMemoryBound(to: GstEvent.self) else { return GST_PAD_PROBE_OK }
        if event.pointee.type == GST_EVENT_STREAM_START {
            let seconds = cut().flatMap { $0 > 0 ? $0 : nil }
            pending.withLock { state in
                state = Pending(seconds: seconds, segment: nil, shift: state.shift + state.shiftAfterThisStream)
            }
        } else if event.pointee.type == GST_EVENT_FLUSH_STOP {
            pending.withLock { $0 = Pending() }
        } else if event.pointee.type == GST_EVENT_SEGMENT {
            moveStart(of: event, info)
        }
        return GST_PAD_PROBE_OK
    }

    /// Replaces the stream's first SEGMENT by one starting at the cut, and any SEGMENT after a cut stream by one
    /// whose running time goes back by the time cut (same seqnum, as a rewritten event keeps it).
    private func moveStart(of event: UnsafeMutablePointer<GstEvent>, _ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard var moved = segment?.pointee, moved.format == GST_FORMAT_TIME else { return }
        // Base 0: running time starts again (a new load after READY): nothing before it is owed any more.
        let (cut, shift) = pending.withLock { state in
            defer { state.seconds = nil }
            if moved.base == 0 { state.shift = 0 }
            return (state.seconds, state.shift)
        }
        guard cut != nil || shift > 0 else { return }
        moved.base -= min(moved.base, shift)
        if let cut {
            // Rounded up: the clip counts whole samples from the segment's start down, so a start a fraction of a
            // nanosecond early would keep the sample before the cut (measured: 12 345 frames cut as 12 344).
            let nanoseconds = guint64((cut * 1e9).rounded(.up))
            moved.start += nanoseconds
            moved.time += nanoseconds
            moved.position = moved.start
            pending.withLock { $0.shiftAfterThisStream = nanoseconds }
        }
        guard let replacement = gst_event_new_segment(&moved) else { return }
        gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
        gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
        info.pointee.data = UnsafeMutableRawPointer(replacement)
        if cut != nil { pending.withLock { $0.segment = moved } }
    }

    /// Clips a buffer to the moved segment; once one passes whole, the stream is left alone.
    private func clip(_ info: UnsafeMutablePointer<GstPadProbeInfo>, on pad: UnsafeMutablePointer<GstPad>) -> GstPadProbeReturn {
        guard var segment = pending.withLock({ $0.segment }),
              let buffer = info.pointee.data?.assumingMemoryBound(to: GstBuffer.self),
              let audio = Self.audioInfo(of: pad) else { return GST_PAD_PROBE_OK }
        let size = gst_buffer_get_size(buffer)
        guard let kept = quaver_gst_audio_buffer_clip(buffer, &segment, audio.rate, audio.bpf) else {
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
        return quaver_gst_audio_info_from_caps(&info, caps) != 0 ? info : nil
    }
}
