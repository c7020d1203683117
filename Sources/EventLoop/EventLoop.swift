// EventLoop: the one loop of the process (GLib's default main context). A wrapper: it owns the GLib
// calls for watches, timers and posted work; may import CGLib and CShims only.
import CGLib

/// The daemon's single event loop: GLib's default main context, run on the main thread.
///
/// Why GLib: libdbus watches and the GStreamer bus watch can share one thread with it at
/// 0.4–0.8 ms signal latency (measured: docs/platform.md, "Event loop"), and GLib sources are the only
/// kind GStreamer's bus watch understands. Swift concurrency's main actor never runs while
/// `g_main_loop_run` owns the thread, so nothing here uses it.
///
/// Every method except `post(_:)` must be called on the loop thread.
public final class EventLoop {
    /// The loop of the process: GLib's default main context.
    public static let main = EventLoop()

    private let loop: OpaquePointer

    private init() {
        loop = g_main_loop_new(nil, 0)
    }

    /// Runs until `quit()`; handlers run on the calling thread.
    public func run() {
        g_main_loop_run(loop)
    }

    public func quit() {
        g_main_loop_quit(loop)
    }

    /// Runs loop iterations until `condition` holds or `timeout` seconds pass.
    /// Returns whether the condition held. For tests and short synchronous waits.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = Int64(g_get_monotonic_time()) + Int64(timeout * 1_000_000)
        let guardTimer = schedule(after: timeout) {}  // wakes a blocking iteration at the deadline
        defer { guardTimer.cancel() }
        while !condition() {
            if Int64(g_get_monotonic_time()) >= deadline { return condition() }
            g_main_context_iteration(nil, 1)
        }
        return true
    }

    /// Runs `handler` on the loop thread soon. Safe to call from any thread: this is how
    /// GStreamer streaming-thread callbacks hand work to the loop (`g_idle_add` is thread-safe).
    public func post(_ handler: @escaping () -> Void) {
        post(priority: G_PRIORITY_DEFAULT, handler)
    }

    /// Runs `handler` on the loop thread once nothing else is ready: no call, reply or signal waiting on a
    /// socket, no timer due, nothing posted with `post(_:)`. For the next slice of long work (queueing
    /// 100 000 tracks). GLib runs every ready source of the highest ready priority in one turn, so a slice
    /// posted at the default priority ran in the same turn as the call that had just arrived, and that
    /// call waited for both; at this priority it waits for the slice under way at most.
    public func postInBackground(_ handler: @escaping () -> Void) {
        post(priority: G_PRIORITY_DEFAULT_IDLE, handler)
    }

    private func post(priority: Int32, _ handler: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Callback(handler)).toOpaque()
        g_idle_add_full(priority, { data in
            let callback = Unmanaged<Callback>.fromOpaque(data!).takeRetainedValue()
            callback.body()
            return 0  // G_SOURCE_REMOVE
        }, box, nil)
    }

    /// Calls `handler` after `seconds`, once or repeatedly. Cancel by `cancel()` or by releasing the source.
    public func schedule(after seconds: Double, repeating: Bool = false,
                         _ handler: @escaping () -> Void) -> LoopSource {
        let callback = Callback(handler)
        let source = g_timeout_source_new(UInt32(max(0, seconds * 1000)))!
        let context = Unmanaged.passRetained(callback).toOpaque()
        g_source_set_callback(source, { data in
            let callback = Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue()
            callback.body()
            return callback.repeating ? 1 : 0
        }, context, { data in Unmanaged<Callback>.fromOpaque(data!).release() })
        callback.repeating = repeating
        return LoopSource(attaching: source)
    }

    /// Calls `handler` when `fd` is readable (`.input`) or writable (`.output`), or on error/hang-up.
    /// The handler returns whether to keep watching.
    public func watch(fd: Int32, conditions: FileConditions,
                      _ handler: @escaping (FileConditions) -> Bool) -> LoopSource {
        let box = Unmanaged.passRetained(FDCallback(handler)).toOpaque()
        let source = g_unix_fd_source_new(fd, GIOCondition(conditions.rawValue))!
        let function: GUnixFDSourceFunc = { _, condition, data in
            let callback = Unmanaged<FDCallback>.fromOpaque(data!).takeUnretainedValue()
            return callback.body(FileConditions(rawValue: condition.rawValue)) ? 1 : 0
        }
        g_source_set_callback(source, unsafeBitCast(function, to: GSourceFunc.self), box,
                              { data in Unmanaged<FDCallback>.fromOpaque(data!).release() })
        // GLib blocks a source that cannot recurse while it is dispatched, by taking its descriptor out of the
        // context's poll set and putting it back, and each change writes the context's wakeup eventfd: two
        // writes, a read and one more turn of the loop for every D-Bus message (strace of GetAll flat out). No
        // handler here runs a nested loop; one that did would see a readable descriptor handled inside it
        // (the D-Bus watch never nests a dispatch: `LoopAttachment`).
        g_source_set_can_recurse(source, 1)
        return LoopSource(attaching: source)
    }

    /// Calls `handler` on the loop thread when the process receives `signal` (SIGTERM, SIGINT, SIGHUP…),
    /// through `g_unix_signal_source_new`, so the handler may do anything, unlike a C signal handler.
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> LoopSource {
        let callback = Callback(handler)
        callback.repeating = true
        let source = g_unix_signal_source_new(signal)!
        g_source_set_callback(source, { data in
            Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().body()
            return 1
        }, Unmanaged.passRetained(callback).toOpaque(),
        { data in Unmanaged<Callback>.fromOpaque(data!).release() })
        return LoopSource(attaching: source)
    }

    /// Microseconds of GLib's monotonic clock (`g_get_monotonic_time`).
    public static var monotonicMicroseconds: Int64 { Int64(g_get_monotonic_time()) }
}

/// Readiness of a file descriptor, as GLib's `GIOCondition` bits.
public struct FileConditions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let input = FileConditions(rawValue: G_IO_IN.rawValue)
    public static let output = FileConditions(rawValue: G_IO_OUT.rawValue)
    public static let error = FileConditions(rawValue: G_IO_ERR.rawValue)
    public static let hangUp = FileConditions(rawValue: G_IO_HUP.rawValue)
}

/// A GLib source attached to the loop. It is removed by `cancel()` or when released.
public final class LoopSource {
    private var source: UnsafeMutablePointer<GSource>?

    init(attaching source: UnsafeMutablePointer<GSource>) {
        self.source = source
        g_source_attach(source, nil)
    }

    public func cancel() {
        guard let source else { return }
        g_source_destroy(source)
        g_source_unref(source)
        self.source = nil
    }

    deinit { cancel() }
}

private final class Callback {
    let body: () -> Void
    var repeating = false
    init(_ body: @escaping () -> Void) { self.body = body }
}

private final class FDCallback {
    let body: (FileConditions) -> Bool
    init(_ body: @escaping (FileConditions) -> Bool) { self.body = body }
}
