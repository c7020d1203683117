import CGStreamer
import CGLib

extension Element {
    /// Connects `handler` to a signal whose C handler takes only the instance and user data, such as
    /// playbin's `about-to-finish` (`g_signal_connect_data`). The handler runs on whatever thread emits
    /// the signal (a streaming thread for `about-to-finish`). Connected while the guard lives.
    public func connect(_ signal: String, _ handler: @escaping () -> Void) -> SignalConnection {
        let box = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            Unmanaged<SignalHandler>.fromOpaque(data!).takeUnretainedValue().body()
        }
        let id = g_signal_connect_data(gobject, signal, unsafeBitCast(callback, to: GCallback.self), box,
                                       { data, _ in Unmanaged<SignalHandler>.fromOpaque(data!).release() },
                                       GConnectFlags(rawValue: 0))
        return SignalConnection(element: self, id: id)
    }

    /// Connects `handler` to a signal whose C handler also gets an element, such as playbin's
    /// `source-setup` (the new source element). Runs on the emitting thread; connected while the guard lives.
    public func connect(_ signal: String, _ handler: @escaping (Element) -> Void) -> SignalConnection {
        let box = Unmanaged.passRetained(ElementSignalHandler(handler)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?,
                                      UnsafeMutableRawPointer?) -> Void = { _, element, data in
            guard let element else { return }
            gst_object_ref(element)
            Unmanaged<ElementSignalHandler>.fromOpaque(data!).takeUnretainedValue().body(Element(owning: element))
        }
        let id = g_signal_connect_data(gobject, signal, unsafeBitCast(callback, to: GCallback.self), box,
                                       { data, _ in Unmanaged<ElementSignalHandler>.fromOpaque(data!).release() },
                                       GConnectFlags(rawValue: 0))
        return SignalConnection(element: self, id: id)
    }

    /// Connects `handler` to GstBin's `deep-element-added`: an element was added to this bin or to a bin
    /// inside it, such as the source an adaptive demuxer makes for each HLS fragment. Runs on the adding
    /// thread; connected while the guard lives.
    public func connectDeepElementAdded(_ handler: @escaping (Element) -> Void) -> SignalConnection {
        let box = Unmanaged.passRetained(ElementSignalHandler(handler)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?,
                                      UnsafeMutableRawPointer?) -> Void = { _, _, element, data in
            guard let element else { return }
            gst_object_ref(element)
            Unmanaged<ElementSignalHandler>.fromOpaque(data!).takeUnretainedValue().body(Element(owning: element))
        }
        let id = g_signal_connect_data(gobject, "deep-element-added", unsafeBitCast(callback, to: GCallback.self), box,
                                       { data, _ in Unmanaged<ElementSignalHandler>.fromOpaque(data!).release() },
                                       GConnectFlags(rawValue: 0))
        return SignalConnection(element: self, id: id)
    }
}

extension Element {
    /// Connects `handler` to a signal of this element once, however often it is called, to run after every
    /// other handler of the emission (`G_CONNECT_AFTER`), such as uridecodebin's `drained`, whose playbin
    /// handler switches to the next item. Connected for the element's life: GObject drops the handler when
    /// the element is finalised, so nothing is kept per call (playbin adds the same decoder again for every
    /// track). `key` marks the element as connected (`g_object_set_data`).
    public func connectAfterOthersOnce(_ signal: String, key: String, _ handler: @escaping () -> Void) {
        guard g_object_get_data(gobject, key) == nil else { return }
        g_object_set_data(gobject, key, UnsafeMutableRawPointer(gobject))  // any non-nil marker
        let box = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            Unmanaged<SignalHandler>.fromOpaque(data!).takeUnretainedValue().body()
        }
        g_signal_connect_data(gobject, signal, unsafeBitCast(callback, to: GCallback.self), box,
                              { data, _ in Unmanaged<SignalHandler>.fromOpaque(data!).release() }, G_CONNECT_AFTER)
    }
}

/// A connected signal handler; released or `cancel()`ed, it is disconnected (`g_signal_handler_disconnect`).
public final class SignalConnection {
    private var element: Element?
    private let id: gulong

    init(element: Element, id: gulong) {
        self.element = element
        self.id = id
    }

    public func cancel() {
        guard let element else { return }
        g_signal_handler_disconnect(element.gobject, id)
        self.element = nil
    }

    deinit { cancel() }
}

private final class SignalHandler {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private final class ElementSignalHandler {
    let body: (Element) -> Void
    init(_ body: @escaping (Element) -> Void) { self.body = body }
}
