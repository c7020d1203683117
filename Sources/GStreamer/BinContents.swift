import CGStreamer
import CGLib

extension Element {
    /// The factory names of the elements in this bin, and in the bins inside it, whose klass metadata has
    /// every one of `words` ("Decoder", "Audio"), in the order the bin lists them; empty when this is not a
    /// bin (`gst_bin_iterate_recurse`, `gst_element_factory_get_metadata`). A bin changed while it is walked
    /// is walked again (GST_ITERATOR_RESYNC).
    public func factoryNames(ofKlassWords words: [String]) -> [String] {
        guard isInstance(of: gst_bin_get_type()) else { return [] }
        var names: [String] = []
        walk(gst_bin_iterate_recurse(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstBin.self)),
             restart: { names = [] }) { element in
            if let name = Self.factoryName(of: element, ifKlassHas: words) { names.append(name) }
        }
        return names
    }

    private static func factoryName(of object: gpointer, ifKlassHas words: [String]) -> String? {
        guard let factory = gst_element_get_factory(object.assumingMemoryBound(to: GstElement.self)),
              let klass = gst_element_factory_get_metadata(factory, "klass") else { return nil }
        let klassWords = String(cString: klass).split(separator: "/")
        guard words.allSatisfy({ klassWords.contains(Substring($0)) }) else { return nil }
        return objectName(UnsafeMutablePointer<GstObject>(factory))
    }
}
