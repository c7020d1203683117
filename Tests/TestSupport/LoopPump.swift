import EventLoop

/// Runs `EventLoop.main` until `condition` holds. A 10 ms tick wakes the loop, since a condition about another
/// process (its exit, its output) is not a GLib event and would otherwise be seen only at the timeout.
@discardableResult
public func pump(until condition: () -> Bool, timeout: Double) -> Bool {
    let tick = EventLoop.main.schedule(after: 0.01, repeating: true) {}
    defer { tick.cancel() }
    return EventLoop.main.run(until: condition, timeout: timeout)
}
