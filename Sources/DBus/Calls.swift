import CDBus
import EventLoop

/// Method calls to other peers.
extension Connection {
    /// Calls a method and waits up to `timeout` seconds for the reply (`dbus_connection_send_with_reply_and_block`).
    /// Blocks the loop: for clients and start-up only. Throws the peer's `DBusError`, or `NoReply` on timeout.
    public func call(destination: String, path: ObjectPath, interface: String, method: String,
                     arguments: [DBusValue] = [], timeout: Double = 25) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface,
                                             method: method, arguments: arguments)
        var reply: OpaquePointer?
        defer { scheduleDispatch() }  // messages that arrived while we blocked are queued
        try CError.check {
            reply = dbus_connection_send_with_reply_and_block(raw, message.raw, Connection.milliseconds(timeout), $0)
            return reply != nil
        }
        return try Message(owning: reply!).arguments()
    }

    /// Calls a method without blocking; `reply` runs later on the loop with the reply's values or the error
    /// (the peer's, `NoReply` after `timeout` seconds, or `Disconnected`). Invalid arguments also arrive there.
    public func call(destination: String, path: ObjectPath, interface: String, method: String,
                     arguments: [DBusValue] = [], timeout: Double = 25,
                     reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        let message: Message
        do {
            message = try Message.methodCall(destination: destination, path: path, interface: interface,
                                             method: method, arguments: arguments)
        } catch {
            let failure = error as? DBusError ?? .failed("\(error)")
            return EventLoop.main.post { reply(.failure(failure)) }
        }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Connection.milliseconds(timeout)) != 0,
              let pending else {
            return EventLoop.main.post { reply(.failure(.disconnected("not connected to the bus"))) }
        }
        let box = Unmanaged.passRetained(ReplyHandler(reply)).toOpaque()
        dbus_pending_call_set_notify(pending, { pending, data in
            let handler = Unmanaged<ReplyHandler>.fromOpaque(data!).takeUnretainedValue()
            let message = Message(owning: dbus_pending_call_steal_reply(pending))
            dbus_pending_call_unref(pending)  // the reference send_with_reply gave us
            handler.deliver(message)
        }, box, { data in Unmanaged<ReplyHandler>.fromOpaque(data!).release() })
    }

    private static func milliseconds(_ seconds: Double) -> Int32 {
        Int32(clamping: Int64((seconds * 1000).rounded()))
    }
}

private final class ReplyHandler {
    let body: (Result<[DBusValue], DBusError>) -> Void
    init(_ body: @escaping (Result<[DBusValue], DBusError>) -> Void) { self.body = body }

    func deliver(_ message: Message) {
        if let error = message.error { return body(.failure(error)) }
        do { body(.success(try message.arguments())) } catch {
            body(.failure(error as? DBusError ?? .failed("\(error)")))
        }
    }
}
