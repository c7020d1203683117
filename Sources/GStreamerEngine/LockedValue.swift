import Synchronization

/// A value shared with streaming threads, behind a `Mutex`: one object that the loop thread and
/// GStreamer's callbacks (which capture it) both hold.
final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: Mutex<Value>
    init(_ value: sending Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout sending Value) -> sending T) -> sending T { mutex.withLock(body) }
}
