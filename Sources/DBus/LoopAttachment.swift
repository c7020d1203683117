import CDBus
import EventLoop
import Glibc

/// Drives one libdbus connection from `EventLoop.main`, never from a thread blocked in
/// `dbus_connection_read_write_dispatch` (docs/platform.md, "D-Bus (libdbus)": signals from other threads are then never delivered).
/// Upstream: by design (libdbus documents that call as uninterruptible while blocked, even by other threads): it stays.
///
///     socket readable/writable ─ EventLoop.watch ─▶ dbus_watch_handle ─▶ dispatch now (a quick read)
///                                                                      ─▶ post(dispatch) (a long read)
///     libdbus timeout ───────── EventLoop.schedule ▶ dbus_timeout_handle ┬▶ post(dispatch)
///     dispatch status DATA_REMAINS (outside a read) ────────────────────┘
///     dispatch: dbus_connection_dispatch in batches while DBUS_DISPATCH_DATA_REMAINS
///
/// Each watch or timeout keeps its `LoopSource` in libdbus's per-watch data, so removing it in libdbus
/// (remove/toggle callbacks) cancels the GLib source.
final class LoopAttachment {
    private let connection: OpaquePointer
    private var dispatchPosted = false
    private var dispatching = false
    /// A watch is reading: what it read is dispatched as `dispatchAfterRead` decides, not posted.
    private var reading = false
    /// A read that took longer than this (µs) was the end of a large message: see `dispatchAfterRead`.
    private static let quickRead: Int64 = 1000

    init(_ connection: OpaquePointer) {
        self.connection = connection
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, { watch, data in
            LoopAttachment.from(data).add(watch: watch!)
            return 1
        }, { watch, _ in
            LoopAttachment.cancelSource(of: watch!, dbus_watch_get_data, dbus_watch_set_data)
        }, { watch, data in
            LoopAttachment.cancelSource(of: watch!, dbus_watch_get_data, dbus_watch_set_data)
            LoopAttachment.from(data).add(watch: watch!)
        }, me, nil)
        dbus_connection_set_timeout_functions(connection, { timeout, data in
            LoopAttachment.from(data).add(timeout: timeout!)
            return 1
        }, { timeout, _ in
            LoopAttachment.cancelSource(of: timeout!, dbus_timeout_get_data, dbus_timeout_set_data)
        }, { timeout, data in
            LoopAttachment.cancelSource(of: timeout!, dbus_timeout_get_data, dbus_timeout_set_data)
            LoopAttachment.from(data).add(timeout: timeout!)
        }, me, nil)
        dbus_connection_set_dispatch_status_function(connection, { _, status, data in
            let attachment = LoopAttachment.from(data)
            if status == DBUS_DISPATCH_DATA_REMAINS, !attachment.reading { attachment.scheduleDispatch() }
        }, me, nil)
        scheduleDispatch()  // messages read while connecting (NameAcquired…) are already queued
    }

    /// Removes every callback before the connection is closed, so none can reach a freed attachment.
    func detach() {
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
    }

    /// Dispatches soon, on the loop. Called after anything that may have queued incoming messages.
    func scheduleDispatch() {
        guard !dispatchPosted else { return }
        dispatchPosted = true
        EventLoop.main.post { [weak self] in self?.dispatch() }
    }

    /// At most `batch` messages per turn so a flood cannot starve the loop's other sources.
    /// Never nested: `dbus_connection_dispatch` called from inside a handler would deadlock.
    /// Upstream: by design (`_dbus_connection_acquire_dispatch` waits for the dispatch already running): it stays.
    private func dispatch() {
        dispatchPosted = false
        dispatchNow()
    }

    private func dispatchNow(batch: Int = 64) {
        guard !dispatching else { return scheduleDispatch() }
        dispatching = true
        defer { dispatching = false }
        for _ in 0..<batch {
            if dbus_connection_dispatch(connection) != DBUS_DISPATCH_DATA_REMAINS { return }
        }
        scheduleDispatch()
    }

    private func add(watch: OpaquePointer) {
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let flags = dbus_watch_get_flags(watch)
        var conditions: FileConditions = [.error, .hangUp]
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { conditions.insert(.input) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { conditions.insert(.output) }
        let source = EventLoop.main.watch(fd: dbus_watch_get_unix_fd(watch), conditions: conditions) {
            [weak self] fired in
            if let self { self.handle(watch, fired) } else { dbus_watch_handle(watch, LoopAttachment.watchFlags(fired)) }
            return true
        }
        dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), nil)
    }

    private func handle(_ watch: OpaquePointer, _ fired: FileConditions) {
        let started = EventLoop.monotonicMicroseconds
        reading = true
        dbus_watch_handle(watch, LoopAttachment.watchFlags(fired))
        if fired.contains(.input) { readOn(watch) }
        reading = false
        dispatchAfterRead(since: started)
    }

    /// Dispatches what a read brought in. After a quick read (a call, a reply) in this turn: posting it cost
    /// every call a second turn of the loop, a tenth of a GetAll's time (a poll of every source, the idle
    /// source made and freed). After a long one in the next turn: reading the end of a large message (AddTracks
    /// of 100 000 URIs, 7 MB) has libdbus validate all of it, some 10 ms, and decoding it is another 20 ms; in
    /// one turn they held every other caller for both. The next slice of long work waits in the background
    /// (`EventLoop.postInBackground`), so that dispatch still comes before it. Nothing is dispatched while a
    /// message is still coming in (the status stays COMPLETE until one is whole).
    private func dispatchAfterRead(since started: Int64) {
        guard dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS else { return }
        guard EventLoop.monotonicMicroseconds - started < Self.quickRead else { return scheduleDispatch() }
        dispatchNow()
    }

    /// libdbus reads at most 2 KiB of a socket per `dbus_watch_handle`: a 7 MB message (AddTracks of
    /// 100 000 URIs) is 3 500 reads, and with a turn of the loop between two of them it took 30 ms to come
    /// in, while every call behind it on the bus connection waited. So the read goes on in this turn while
    /// the socket has bytes, until a whole message is in (it is dispatched next turn) or for 2 ms at most.
    private func readOn(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let deadline = EventLoop.monotonicMicroseconds + 2000
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_COMPLETE,
              dbus_watch_get_enabled(watch) != 0, dbus_watch_get_flags(watch) & DBUS_WATCH_READABLE.rawValue != 0,
              Self.hasBytes(fd), EventLoop.monotonicMicroseconds < deadline {
            dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue)
        }
    }

    private static func hasBytes(_ fd: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) == 1 && request.revents & Int16(POLLIN) != 0
    }

    private func add(timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let seconds = Double(dbus_timeout_get_interval(timeout)) / 1000
        let source = EventLoop.main.schedule(after: seconds, repeating: true) { [weak self] in
            dbus_timeout_handle(timeout)
            self?.scheduleDispatch()
        }
        dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque(), nil)
    }

    private static func watchFlags(_ fired: FileConditions) -> UInt32 {
        var flags: UInt32 = 0
        if fired.contains(.input) { flags |= DBUS_WATCH_READABLE.rawValue }
        if fired.contains(.output) { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if fired.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
        if fired.contains(.hangUp) { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }

    /// Cancels and releases the `LoopSource` stored on a watch or timeout, if any.
    private static func cancelSource(of item: OpaquePointer,
                                     _ get: (OpaquePointer?) -> UnsafeMutableRawPointer?,
                                     _ set: (OpaquePointer?, UnsafeMutableRawPointer?, DBusFreeFunction?) -> Void) {
        guard let data = get(item) else { return }
        set(item, nil, nil)
        Unmanaged<LoopSource>.fromOpaque(data).takeRetainedValue().cancel()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> LoopAttachment {
        Unmanaged<LoopAttachment>.fromOpaque(data!).takeUnretainedValue()
    }
}
