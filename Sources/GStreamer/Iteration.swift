import CGStreamer
import CGLib

/// Calls `visit` with each object `iterator` gives (held by the iterator for the call only), then frees the
/// iterator. When the container changes while it is walked (GST_ITERATOR_RESYNC), `restart` runs and the walk
/// begins again, so what `visit` gathered before is dropped by `restart`.
func walk(_ iterator: UnsafeMutablePointer<GstIterator>, restart: () -> Void, _ visit: (gpointer) -> Void) {
    defer { gst_iterator_free(iterator) }
    var value = GValue()
    defer { if value.g_type != 0 { g_value_unset(&value) } }
    while true {
        let result = gst_iterator_next(iterator, &value)
        if result == GST_ITERATOR_RESYNC {
            gst_iterator_resync(iterator)
            restart()
            continue
        }
        guard result == GST_ITERATOR_OK else { return }
        if let object = g_value_get_object(&value) { visit(object) }
        g_value_reset(&value)
    }
}
