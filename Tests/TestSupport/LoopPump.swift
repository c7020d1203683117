import DBus
import EventLoop

/// Runs `EventLoop.main` until `condition` holds. A 10 ms tick wakes the loop, since a condition about another
/// process (its exit, its output) is not a GLib event and would otherwise be seen only at the timeout.
@discardableResult
public func pump(until condition: () -> Bool, timeout: Double) -> Bool {
    let tick = EventLoop.main.schedule(after: 0.01, repeating: true) {}
    defer { tick.cancel() }
    return EventLoop.main.run(until: condition, timeout: timeout)
}

extension Connection {
    /// Runs `EventLoop.main` until a Ping sent now to `destination` is answered. The bus keeps each sender's
    /// messages in order, and so does this connection's dispatch: by then the bus has taken the match rules
    /// added before, and every signal `destination` sent before answering (and the reply to an owner lookup)
    /// has been handled here. What a fixed wait for "the subscription settles" only hoped for.
    @discardableResult
    public func roundTrip(to destination: String, timeout: Double = 10) -> Bool {
        var answered = false
        call(destination: destination, path: ObjectPath(stringLiteral: "/"), interface: "org.freedesktop.DBus.Peer",
             method: "Ping", timeout: timeout) { _ in answered = true }
        return pump(until: { answered }, timeout: timeout)
    }
}
