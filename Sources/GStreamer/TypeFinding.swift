import CGStreamer
import CGStreamerLibraries
import CGLib

/// What bytes are, by GStreamer's type finders: those of every installed plugin, as playbin uses them
/// (`gst_type_find_helper_for_data`).
public enum TypeFinding {
    /// The media type (the caps' structure name, e.g. `audio/x-flac`, `application/x-id3`, `text/plain`)
    /// of `bytes`, when a type finder is at least fairly sure (`GST_TYPE_FIND_LIKELY`); `nil` otherwise.
    public static func mediaType(of bytes: [UInt8]) -> String? {
        GStreamer.initialize()
        var probability = GST_TYPE_FIND_NONE
        let found = bytes.withUnsafeBufferPointer { buffer in
            quaver_gst_type_find_helper_for_data(nil, buffer.baseAddress, gsize(buffer.count), &probability)
        }
        guard let caps = found else { return nil }
        defer { gst_caps_unref(caps) }
        guard probability.rawValue >= GST_TYPE_FIND_LIKELY.rawValue, gst_caps_get_size(caps) > 0,
              let structure = gst_caps_get_structure(caps, 0) else { return nil }
        return String(cString: gst_structure_get_name(structure))
    }
}
