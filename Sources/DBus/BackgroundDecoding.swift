import Dispatch
import EventLoop

/// Decodes the arguments of calls that are answered later (`InterfaceDescription.Method.Body.later`) on a
/// thread of its own and hands them back to the loop. Such a call does its work over several turns anyway;
/// decoding it on the loop was one more turn in which nobody else was answered, 20 ms for 100 000 URIs.
///
/// One thread decodes one message at a time, in the order they came, so calls answered later start in
/// that order. A message is only read there, never changed: libdbus counts its references atomically, and
/// the loop does not touch it until its arguments are back.
enum BackgroundDecoding {
    private static let queue = DispatchQueue(label: "quaver.dbus.arguments")

    /// `body` runs on the loop with the arguments, or with the error that decoding them gave.
    static func arguments(of message: Message, then body: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        let call = HandOver(message)
        queue.async {
            let decoded = HandOver(Result { try ValueReader.read(call.value.raw) }
                .mapError { $0 as? DBusError ?? .failed("\($0)") })
            EventLoop.main.post { body(decoded.value) }
        }
    }
}

/// What crosses between the loop and a thread of the DBus module (`BackgroundDecoding`, messages built off
/// the loop); each side uses it while the other does not.
final class HandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
