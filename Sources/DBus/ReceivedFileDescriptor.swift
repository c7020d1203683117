import Glibc

/// A unix file descriptor that arrived in a message (`h`), such as a logind inhibitor lock.
///
/// libdbus gives every reader its own duplicate, so this object owns it: `close()` releases it (for a lock,
/// that is what releases the lock), and releasing the last reference closes it too, so a reply dropped
/// unread never leaks a descriptor. Like everything in this module, it is used on the loop thread.
public final class ReceivedFileDescriptor: @unchecked Sendable, CustomStringConvertible {
    /// The descriptor number; -1 once closed.
    public private(set) var rawValue: Int32

    init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    public var isOpen: Bool { rawValue >= 0 }

    /// Closes the descriptor now; later calls do nothing.
    public func close() {
        guard rawValue >= 0 else { return }
        Glibc.close(rawValue)
        rawValue = -1
    }

    public var description: String { isOpen ? "fd \(rawValue)" : "fd (closed)" }

    deinit { close() }
}
