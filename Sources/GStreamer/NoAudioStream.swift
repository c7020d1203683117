import CGStreamer
import CGLib

extension Element {
    /// For a uridecodebin of an audio-only playbin: once the decoder has settled its streams (`no-more-pads`,
    /// emitted again should a later part of a chained file bring new ones) and none of them is audio (an
    /// image, a video without sound), posts a stream error from it (`GST_STREAM_ERROR_WRONG_TYPE`), so the
    /// item fails instead of standing still. playbin prerolls such an item at once, as nothing waits to
    /// preroll, and fails it only through the error of a video buffer that finds no sink. That error can be
    /// lost (decodebin2 holds back the errors of an element it is still adding, and drops them), and a video
    /// without frames brings none (docs/platform.md, "An item without audio"). Connected once per element, for
    /// its life; the handler holds nothing.
    public func failsWithoutAudioStream() {
        let key = "quaver-fails-without-audio"
        guard g_object_get_data(gobject, key) == nil else { return }
        g_object_set_data(gobject, key, UnsafeMutableRawPointer(gobject))  // any non-nil marker
        let callback: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutableRawPointer?) -> Void = { decoder, _ in
            guard let decoder, !Element.anySourcePadMayCarryAudio(decoder) else { return }
            let error = g_error_new_literal(gst_stream_error_quark(), gint(GST_STREAM_ERROR_WRONG_TYPE.rawValue),
                                            "No audio stream in it.")
            defer { g_error_free(error) }
            let source = UnsafeMutableRawPointer(decoder).assumingMemoryBound(to: GstObject.self)
            gst_element_post_message(decoder, gst_message_new_error(source, error, "no source pad of the decoder has audio caps"))
        }
        g_signal_connect_data(gobject, "no-more-pads", unsafeBitCast(callback, to: GCallback.self), nil, nil,
                              GConnectFlags(rawValue: 0))
    }

    /// Whether a source pad of `element` has audio caps, or caps not known (counted as possibly audio, so only a
    /// decoder sure of having none is failed).
    private static func anySourcePadMayCarryAudio(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        var found = false
        walk(gst_element_iterate_src_pads(element), restart: { found = false }) { pad in
            if mayCarryAudio(pad.assumingMemoryBound(to: GstPad.self)) { found = true }
        }
        return found
    }

    private static func mayCarryAudio(_ pad: UnsafeMutablePointer<GstPad>) -> Bool {
        guard let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil) else { return true }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        let count = gst_caps_get_size(caps)
        guard count > 0, gst_caps_is_any(caps) == 0 else { return true }
        return (0..<count).contains { index in
            guard let name = gst_structure_get_name(gst_caps_get_structure(caps, index)) else { return true }
            return String(cString: name).hasPrefix("audio/")
        }
    }
}
