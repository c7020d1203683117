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
        let handOver = HandOver(message: message)
        queue.async {
            let decoded: Result<[DBusValue], DBusError>
            do { decoded = .success(try ValueReader.read(handOver.message.raw)) } catch let error as DBusError {
                decoded = .failure(error)
            } catch {
                decoded = .failure(.failed("\(error)"))
            }
            let result = HandOver(message: handOver.message, decoded: decoded)
            EventLoop.main.post { body(result.decoded!) }
        }
    }

    /// What crosses between the loop and the decoding thread; each side uses it while the other does not.
    private final class HandOver: @unchecked Sendable {
        let message: Message
        let decoded: Result<[DBusValue], DBusError>?
        init(message: Message, decoded: Result<[DBusValue], DBusError>? = nil) {
            self.message = message
            self.decoded = decoded
        }
    }
}
