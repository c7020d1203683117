import CGStreamer
import CGLib

public enum Registry {
    /// Media types the installed plugins can take in: the sink caps of every decoder and demuxer
    /// factory in the registry (`gst_registry_get_feature_list`, `gst_element_factory_get_static_pad_templates`).
    /// `klassFilter` picks factories by their klass metadata (e.g. "Decoder/Audio", "Demuxer").
    public static func sinkMediaTypes(ofFactoriesWhoseKlass klassFilter: (String) -> Bool) -> [String] {
        GStreamer.initialize()
        let features = gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type())
        defer { gst_plugin_feature_list_free(features) }
        var types = Set<String>()
        var node = features
        while let current = node {
            let factory = OpaquePointer(current.pointee.data!)
            if let klass = gst_element_factory_get_metadata(factory, "klass"), klassFilter(String(cString: klass)) {
                types.formUnion(sinkMediaTypes(of: factory))
            }
            node = current.pointee.next
        }
        return types.sorted()
    }

    private static func sinkMediaTypes(of factory: OpaquePointer) -> [String] {
        var types: [String] = []
        var node = gst_element_factory_get_static_pad_templates(factory).map { UnsafePointer($0) }
        while let current = node {
            let template = current.pointee.data.assumingMemoryBound(to: GstStaticPadTemplate.self)
            if template.pointee.direction == GST_PAD_SINK, let caps = gst_static_caps_get(&template.pointee.static_caps) {
                if gst_caps_is_any(caps) == 0 {
                    types += (0..<gst_caps_get_size(caps)).map {
                        String(cString: gst_structure_get_name(gst_caps_get_structure(caps, $0)))
                    }
                }
                gst_caps_unref(caps)
            }
            node = current.pointee.next.map { UnsafePointer($0) }
        }
        return types
    }
}
