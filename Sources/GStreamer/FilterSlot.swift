import CGStreamer
import CGLib

/// A bin that stands in for one filter element behind two ghost pads ("sink", "src"), so that the
/// element inside can be replaced by a fresh one while the pipeline is at NULL, and anything attached
/// to the bin's pads (a pad probe) stays attached.
///
/// Why: `scaletempo` (gst-plugins-good 1.22) frees its sample queue when it stops but keeps the
/// count of queued bytes; started again (each new load takes playbin through NULL), the first buffer
/// at a rate ≠ 1 moves that many bytes out of the freed queue — a segmentation fault in `memcpy` on a
/// streaming thread, reproduced by loading files while changing the rate. A new element has no past.
/// Upstream: no issue found (GNOME bug 775898, fixed in 1.10.3, only reallocates the queue); `gst_scaletempo_stop`
/// still keeps `bytes_queued` in GStreamer 1.29.2 (main, 2026-08): not fixed upstream.
public final class FilterSlot {
    /// The bin to hand to the pipeline (playbin's `audio-filter`).
    public let bin: Element
    private let make: () throws -> Element?
    private var filter: Element
    private let sinkPad: UnsafeMutablePointer<GstPad>
    private let sourcePad: UnsafeMutablePointer<GstPad>

    /// Builds the bin around a first element from `make`; throws what `make` throws, and is `nil` when
    /// `make` gives no element (nothing to filter with).
    public init?(name: String, making make: @escaping () throws -> Element?) throws {
        guard let first = try make() else { return nil }
        self.make = make
        filter = first
        bin = Element(sinking: gst_bin_new(name))
        sinkPad = Self.addGhostPad(to: bin, named: "sink", direction: GST_PAD_SINK)
        sourcePad = Self.addGhostPad(to: bin, named: "src", direction: GST_PAD_SRC)
        insert(filter)
    }

    deinit {
        gst_object_unref(sinkPad)
        gst_object_unref(sourcePad)
    }

    /// Replaces the element by a fresh one. Only while the bin is at NULL (nothing streams through
    /// it then); otherwise, or if a new element cannot be made, the old one stays.
    public func renew() {
        guard bin.currentState == .null, let fresh = try? make() else { return }
        gst_bin_remove(binPointer, filter.pointer)
        filter = fresh
        insert(fresh)
    }

    private var binPointer: UnsafeMutablePointer<GstBin> {
        UnsafeMutableRawPointer(bin.pointer).assumingMemoryBound(to: GstBin.self)
    }

    /// `gst_bin_add` takes a reference of its own; the ghost pads then point at the element's pads.
    private func insert(_ element: Element) {
        gst_bin_add(binPointer, element.pointer)
        Self.retarget(sinkPad, to: element, "sink")
        Self.retarget(sourcePad, to: element, "src")
    }

    private static func retarget(_ ghost: UnsafeMutablePointer<GstPad>, to element: Element, _ name: String) {
        guard let target = gst_element_get_static_pad(element.pointer, name) else { return }
        ghost.withMemoryRebound(to: GstGhostPad.self, capacity: 1) { _ = gst_ghost_pad_set_target($0, target) }
        gst_object_unref(target)
    }

    /// A ghost pad without target, added to `bin` (`gst_element_add_pad` sinks its floating reference);
    /// the returned pointer holds one more reference, released in `deinit`.
    private static func addGhostPad(to bin: Element, named name: String,
                                    direction: GstPadDirection) -> UnsafeMutablePointer<GstPad> {
        let pad = gst_ghost_pad_new_no_target(name, direction)!
        gst_object_ref(pad)
        gst_element_add_pad(bin.pointer, pad)
        return pad
    }
}
