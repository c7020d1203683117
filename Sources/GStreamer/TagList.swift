import CGStreamer
import CGLib

/// A `GstTagList`; `gst_tag_list_unref` when released.
public final class TagList {
    let pointer: UnsafeMutablePointer<GstTagList>

    /// Takes over one reference (a list from `gst_tag_list_copy` or a message's parse function).
    init(owning pointer: UnsafeMutablePointer<GstTagList>) { self.pointer = pointer }

    deinit { gst_tag_list_unref(pointer) }

    /// A new list with this one's tags and those of `other` this one lacks (`gst_tag_list_merge`, KEEP): the
    /// same tag posted twice (a file's and its stream's) is not listed twice.
    public func merging(_ other: TagList) -> TagList {
        gst_tag_list_merge(pointer, other.pointer, GST_TAG_MERGE_KEEP).map { TagList(owning: $0) } ?? self
    }

    /// The first `limit` string values of `tag` (`gst_tag_list_get_tag_size`, `gst_tag_list_get_string_index`).
    public func strings(_ tag: String, limit: Int = .max) -> [String] {
        (0..<min(gst_tag_list_get_tag_size(pointer, tag), guint(clamping: limit))).compactMap { index in
            var value: UnsafeMutablePointer<gchar>?
            guard gst_tag_list_get_string_index(pointer, tag, index, &value) != 0, let value else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }
    }

    /// `gst_tag_list_get_uint`.
    public func unsigned(_ tag: String) -> UInt32? {
        var value: guint = 0
        return gst_tag_list_get_uint(pointer, tag, &value) != 0 ? UInt32(value) : nil
    }

    /// The first sample under `tag` itself, held (`gst_tag_list_get_sample_index` gives a reference): TAG messages
    /// repeat the whole list, and a list copied along carries the same sample, so comparing handles tells a cover
    /// already read from a new one without copying its bytes.
    public func sampleHandle(_ tag: String) -> SampleHandle? {
        var sample: OpaquePointer?
        guard gst_tag_list_get_sample_index(pointer, tag, 0, &sample) != 0, let sample else { return nil }
        return SampleHandle(owning: sample)
    }

    /// The first sample under `tag` (such as `"image"`, GST_TAG_IMAGE) as its bytes and the caps'
    /// media type (`gst_tag_list_get_sample_index`, `gst_buffer_map`); nil when it is larger than
    /// `maximumBytes` (`gst_buffer_get_size`), which is then never copied.
    public func sample(_ tag: String, maximumBytes: Int = .max) -> (bytes: [UInt8], mediaType: String)? {
        var sample: OpaquePointer?
        guard gst_tag_list_get_sample_index(pointer, tag, 0, &sample) != 0, let sample else { return nil }
        defer { gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample), gst_buffer_get_size(buffer) <= maximumBytes else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        let bytes = map.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(map.size))) } ?? []
        var mediaType = ""
        if let caps = gst_sample_get_caps(sample), gst_caps_get_size(caps) > 0 {
            mediaType = String(cString: gst_structure_get_name(gst_caps_get_structure(caps, 0)))
        }
        return (bytes, mediaType)
    }
}

/// A `GstSample` held for its identity (`TagList.sampleHandle`); `gst_sample_unref` when released. Equal when both
/// are the same sample: while one is held, no other sample can take its address.
public final class SampleHandle: Equatable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { gst_sample_unref(pointer) }

    public static func == (lhs: SampleHandle, rhs: SampleHandle) -> Bool { lhs.pointer == rhs.pointer }
}
