import CGStreamer
import CGLib

/// A `GstBus`; `gst_object_unref` when released.
public final class Bus {
    let pointer: UnsafeMutablePointer<GstBus>

    init(owning pointer: UnsafeMutablePointer<GstBus>) { self.pointer = pointer }

    /// A bus not attached to any pipeline (`gst_bus_new`), for tests that post synthetic messages.
    public convenience init() { self.init(owning: gst_bus_new()) }

    deinit { gst_object_unref(pointer) }

    /// Calls `handler` on the loop thread for every message (`gst_bus_add_watch_full` on GLib's
    /// default context, which EventLoop runs). The watch lasts as long as the returned guard.
    public func watch(_ handler: @escaping (Message) -> Void) -> BusWatch {
        let box = Unmanaged.passRetained(MessageHandler(handler)).toOpaque()
        gst_bus_add_watch_full(pointer, G_PRIORITY_DEFAULT, { _, message, data in
            let handler = Unmanaged<MessageHandler>.fromOpaque(data!).takeUnretainedValue()
            handler.body(Message(borrowing: message!))
            return 1  // G_SOURCE_CONTINUE
        }, box, { data in Unmanaged<MessageHandler>.fromOpaque(data!).release() })
        return BusWatch(bus: self)
    }

    /// Posts `message` (`gst_bus_post`), as an element would.
    @discardableResult
    public func post(_ message: Message) -> Bool {
        gst_bus_post(pointer, gst_message_ref(message.pointer)) != 0
    }

    /// The next message, waiting for one at most `wait` (`gst_bus_timed_pop`), for a pipeline driven from a
    /// thread of its own rather than through a watch on the loop.
    public func pop(waitingAtMost wait: Duration) -> Message? {
        gst_bus_timed_pop(pointer, GstClockTime(max(0, wait.nanoseconds))).map { Message(owning: $0) }
    }

    /// Drops every queued message (`gst_bus_set_flushing` on then off): messages of a stream we
    /// have just torn down must not be mistaken for the next one's.
    public func dropPending() {
        gst_bus_set_flushing(pointer, 1)
        gst_bus_set_flushing(pointer, 0)
    }
}

/// A bus watch; released or `cancel()`ed, it is removed (`gst_bus_remove_watch`).
public final class BusWatch {
    private var bus: Bus?

    init(bus: Bus) { self.bus = bus }

    public func cancel() {
        guard let bus else { return }
        gst_bus_remove_watch(bus.pointer)
        self.bus = nil
    }

    deinit { cancel() }
}

private final class MessageHandler {
    let body: (Message) -> Void
    init(_ body: @escaping (Message) -> Void) { self.body = body }
}
