import CDBus

/// An owned `DBusMessage`, released in `deinit`. Every constructor validates what libdbus would abort on.
final class Message {
    let raw: OpaquePointer

    init(owning raw: OpaquePointer) { self.raw = raw }
    deinit { dbus_message_unref(raw) }

    /// `dbus_message_new_method_call`
    static func methodCall(destination: String?, path: ObjectPath, interface: String?, method: String,
                           arguments: [DBusValue]) throws -> Message {
        if let destination { try Names.checkBusName(destination) }
        if let interface { try Names.checkInterface(interface) }
        try Names.checkMember(method)
        let message = Message(owning: dbus_message_new_method_call(destination, path.rawValue, interface, method))
        try ValueWriter.append(arguments, to: message.raw)
        return message
    }

    /// `dbus_message_new_signal`
    static func signal(path: ObjectPath, interface: String, name: String, arguments: [DBusValue]) throws -> Message {
        try Names.checkInterface(interface)
        try Names.checkMember(name)
        let message = Message(owning: dbus_message_new_signal(path.rawValue, interface, name))
        try ValueWriter.append(arguments, to: message.raw)
        return message
    }

    /// `dbus_message_new_method_return`
    func methodReturn(_ values: [DBusValue]) throws -> Message {
        let reply = Message(owning: dbus_message_new_method_return(raw))
        try ValueWriter.append(values, to: reply.raw)
        return reply
    }

    /// The return with `values`, or the error they make (a value libdbus would refuse).
    func reply(_ values: [DBusValue]) -> Message {
        do { return try methodReturn(values) } catch let error as DBusError { return errorReply(error) } catch {
            return errorReply(.failed("\(error)"))
        }
    }

    /// `dbus_message_new_error`; the message text is checked too, an invalid one is replaced.
    func errorReply(_ error: DBusError) -> Message {
        let text = (try? Names.checkString(error.message)) != nil ? error.message : "(invalid error text)"
        return Message(owning: dbus_message_new_error(raw, error.name, text))
    }

    var type: Int32 { dbus_message_get_type(raw) }
    var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    var signature: Signature { Signature(trusted: dbus_message_get_signature(raw).map { String(cString: $0) } ?? "") }
    var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    func arguments() throws -> [DBusValue] { try ValueReader.read(raw) }

    /// An error reply as a `DBusError`, with its first string argument as the text.
    var error: DBusError? {
        guard let name = errorName else { return nil }
        let text = (try? arguments())?.first?.stringValue ?? ""
        return DBusError(name: name, message: text)
    }

    /// `DBUS_MESSAGE_TYPE_*` are macros: the values from the specification.
    enum Kind {
        static let methodCall: Int32 = 1, methodReturn: Int32 = 2, error: Int32 = 3, signal: Int32 = 4
    }
}
