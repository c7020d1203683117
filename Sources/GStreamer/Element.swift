import CGStreamer
import CGLib
import CShims

/// A `GstElement` we hold a reference to; `gst_object_unref` when released.
public final class Element {
    let pointer: UnsafeMutablePointer<GstElement>

    /// Takes a new or floating reference (`gst_object_ref_sink`), as factories and the parser return them.
    init(sinking pointer: UnsafeMutablePointer<GstElement>) {
        self.pointer = pointer
        gst_object_ref_sink(pointer)
    }

    /// Takes over a full reference the caller already holds.
    init(owning pointer: UnsafeMutablePointer<GstElement>) { self.pointer = pointer }

    deinit { gst_object_unref(pointer) }

    /// `gst_element_factory_make`; fails when the plugin that provides `factory` is not installed.
    public static func make(_ factory: String, name: String? = nil) throws -> Element {
        GStreamer.initialize()
        guard let made = gst_element_factory_make(factory, name) else {
            throw GStreamerError(domain: .core, code: Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue),
                                 message: "No GStreamer element \"\(factory)\" (plugin missing?)")
        }
        return Element(sinking: made)
    }

    /// `gst_parse_bin_from_description` with ghost pads for unlinked pads, so that a pipeline
    /// fragment such as `audioconvert ! wavenc ! filesink location=x.wav` acts as one sink element.
    public static func parseBin(_ description: String) throws -> Element {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let made = gst_parse_bin_from_description(description, 1, &error)
        if let error { throw GStreamerError(taking: error, debug: nil) }
        guard let made else { throw GStreamerError(domain: .core, code: 0, message: "Cannot parse \(description)") }
        return Element(sinking: made)
    }

    /// A whole pipeline with its own bus (`gst_parse_launch` of a description with links), as
    /// `gst-launch-1.0` runs it.
    public static func pipeline(_ description: String) throws -> Element {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let made = gst_parse_launch(description, &error)
        if let made, error == nil { return Element(sinking: made) }
        if let made { gst_object_unref(made) }
        if let error { throw GStreamerError(taking: error, debug: nil) }
        throw GStreamerError(domain: .core, code: 0, message: "Cannot parse \(description)")
    }

    /// Parses `description` as a single element (`gst_parse_launch`) or, if it has links, as a bin.
    public static func parse(_ description: String) throws -> Element {
        try description.contains("!") ? parseBin(description) : pipeline(description)
    }

    /// `gst_object_get_name`.
    public var name: String { objectName(pointer) }

    /// Sets any property from text (`gst_util_set_object_arg`): strings, numbers, flags
    /// (`"audio+soft-volume"`), enums, even structures (`"props,media.role=music"`). A `uri` first has the http
    /// elements' libsoup chosen (`GStreamer.prepare(forURI:)`).
    public func set(_ property: String, _ text: String) {
        if property == "uri" { GStreamer.prepare(forURI: text) }
        gst_util_set_object_arg(gobject, property, text)
    }

    /// Sets a `gdouble` property (`g_object_set_property`).
    public func set(_ property: String, _ value: Double) {
        var gvalue = GValue()
        g_value_init(&gvalue, quaver_g_type_double())
        g_value_set_double(&gvalue, value)
        g_object_set_property(gobject, property, &gvalue)
        g_value_unset(&gvalue)
    }

    /// Sets a string property, or NULL for nil (`g_object_set_property`): pulsesink's `device` back to the server's choice.
    public func set(_ property: String, string value: String?) {
        var gvalue = GValue()
        g_value_init(&gvalue, quaver_g_type_string())
        g_value_set_string(&gvalue, value)
        g_object_set_property(gobject, property, &gvalue)
        g_value_unset(&gvalue)
    }

    /// A string property's value, nil for NULL (`g_object_get_property`).
    public func string(_ property: String) -> String? {
        var gvalue = GValue()
        g_value_init(&gvalue, quaver_g_type_string())
        defer { g_value_unset(&gvalue) }
        g_object_get_property(gobject, property, &gvalue)
        return g_value_get_string(&gvalue).map { String(cString: $0) }
    }

    /// Sets an object property such as playbin's `audio-sink` (`g_object_set_property`).
    public func set(_ property: String, _ element: Element) {
        var gvalue = GValue()
        g_value_init(&gvalue, quaver_g_type_object())
        g_value_set_object(&gvalue, element.pointer)
        g_object_set_property(gobject, property, &gvalue)
        g_value_unset(&gvalue)
    }

    /// The element's bus (`gst_element_get_bus`).
    public var bus: Bus { Bus(owning: gst_element_get_bus(pointer)) }

    /// Whether `object` is this element or inside it (`gst_object_has_as_ancestor`).
    public func contains(_ object: UnsafeMutablePointer<GstObject>) -> Bool {
        let me = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
        return object == me || gst_object_has_as_ancestor(object, me) != 0
    }

    /// The name of the factory that made it, such as "uridecodebin" (`gst_element_get_factory`).
    public var factoryName: String? {
        guard let factory = gst_element_get_factory(pointer) else { return nil }
        return objectName(UnsafeMutablePointer<GstObject>(factory))
    }

    var gobject: UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
    }
}

/// `gst_object_get_name`, freed after copying.
func objectName<T>(_ object: UnsafeMutablePointer<T>) -> String {
    guard let name = gst_object_get_name(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstObject.self))
    else { return "" }
    defer { g_free(name) }
    return String(cString: name)
}

extension Element {
    /// Whether the element is an instance of `type` or of a type derived from it (`g_type_check_instance_is_a`).
    func isInstance(of type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    /// Whether the element's class has a property called `name` (`g_object_class_find_property`).
    public func hasProperty(_ name: String) -> Bool {
        let instance = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GTypeInstance.self)
        let objectClass = UnsafeMutableRawPointer(instance.pointee.g_class).assumingMemoryBound(to: GObjectClass.self)
        return g_object_class_find_property(objectClass, name) != nil
    }
}

extension Element {
    /// The element called `name` in this bin or in bins inside it (`gst_bin_get_by_name`); `nil` when
    /// there is none or this is not a bin.
    public func child(named name: String) -> Element? {
        guard isInstance(of: gst_bin_get_type()) else { return nil }
        let bin = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstBin.self)
        return gst_bin_get_by_name(bin, name).map { Element(owning: $0) }
    }
}

extension Element {
    /// Sets a `gdouble` property of the child object at `index` (`gst_child_proxy_get_child_by_index`), such as
    /// a band of `equalizer-nbands`; nothing when there is no such child.
    public func setChild(at index: Int, _ property: String, _ value: Double) {
        // GstChildProxy is an interface: Swift sees an opaque pointer.
        guard index >= 0, let child = gst_child_proxy_get_child_by_index(OpaquePointer(pointer), guint(index)) else { return }
        defer { g_object_unref(child) }
        var gvalue = GValue()
        g_value_init(&gvalue, quaver_g_type_double())
        g_value_set_double(&gvalue, value)
        g_object_set_property(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GObject.self), property, &gvalue)
        g_value_unset(&gvalue)
    }
}
