import CDBus
@testable import DBus

extension Message {
    /// The message as it goes on the wire (`dbus_message_marshal`): two replies compared byte for byte differ in
    /// any type, value, alignment or order.
    func marshalled() throws -> [UInt8] {
        var bytes: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &bytes, &length) != 0, let bytes else { throw DBusError.failed("marshal") }
        defer { dbus_free(bytes) }
        return UnsafeRawBufferPointer(start: bytes, count: Int(length)).map { $0 }
    }
}
