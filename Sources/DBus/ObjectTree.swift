/// Routes incoming method calls to exported objects and answers the standard interfaces from their
/// descriptions. Every failure is a named D-Bus error reply; nothing here can make libdbus abort, because
/// arguments are compared by signature before they are used.
final class ObjectTree {
    private var objects: [ObjectPath: ExportedObject] = [:]

    func add(_ object: ExportedObject) { objects[object.path] = object }
    func remove(_ path: ObjectPath) { objects[path] = nil }

    /// Answers a method call (a return or an error), unless a handler answers later through the
    /// `PendingReply` made with `connection`.
    func handle(_ message: Message, on connection: Connection) {
        do {
            guard let values = try route(message, connection) else { return }
            connection.reply(to: message, with: values)
        } catch {
            connection.reply(to: message, with: error as? DBusError ?? .failed("\(error)"))
        }
    }

    private func route(_ message: Message, _ connection: Connection) throws -> [DBusValue]? {
        let path = ObjectPath(trusted: message.path ?? "/")
        let member = message.member ?? ""
        let object = objects[path]
        switch message.interface {
        case StandardInterface.introspectable?:
            guard member == "Introspect" else { throw DBusError.unknownMethod("No method \(member) in Introspectable") }
            try expect(message, "", for: "Introspect")
            return [.string(try introspect(path))]
        case StandardInterface.properties?:
            guard let object else { throw DBusError.unknownObject("No object at path \(path)") }
            let properties = PropertiesInterface(object: object)
            guard member == "GetAll" else { return try properties.handle(member, message) }
            switch try properties.getAll(message) {
            case .written(let reply):
                connection.reply(to: message, built: reply)
                return nil
            case .values(let values):
                return values
            }
        default:
            guard let object else { throw DBusError.unknownObject("No object at path \(path)") }
            let method = try find(member, interface: message.interface, in: object)
            try expect(message, method.inputSignature, for: member)
            let outputs: [DBusValue]
            switch method.body {
            case .immediate(let handler):
                outputs = try handler(MethodCall(path: path, interface: message.interface, member: member,
                                                 sender: message.sender, arguments: try message.arguments()))
            case .later(let handler):
                // Its arguments are decoded off the loop (`BackgroundDecoding`): AddTracks of 100 000 URIs
                // took 20 ms to decode, a turn every other caller waited for. The call starts when they are in.
                let interface = message.interface, sender = message.sender, outputSignature = method.outputSignature
                BackgroundDecoding.arguments(of: message) { [weak connection] decoded in
                    guard let connection else { return }
                    let reply = PendingReply(call: message, member: member, outputSignature: outputSignature,
                                             connection: connection)
                    do {
                        try handler(MethodCall(path: path, interface: interface, member: member, sender: sender,
                                               arguments: try decoded.get()), reply)
                    } catch {
                        reply.fail(error as? DBusError ?? .failed("\(error)"))
                    }
                }
                return nil
            }
            guard outputs.signature == method.outputSignature else {
                throw DBusError.failed("\(member) produced '\(outputs.signature)' instead of '\(method.outputSignature)'")
            }
            return outputs
        }
    }

    private func find(_ member: String, interface: String?, in object: ExportedObject) throws
        -> InterfaceDescription.Method {
        let candidates: [InterfaceDescription]
        if let interface {
            guard let found = object.interface(named: interface) else {
                throw DBusError.unknownInterface("No interface \(interface) at \(object.path)")
            }
            candidates = [found]
        } else {
            candidates = object.interfaces
        }
        for description in candidates {
            if let method = description.methods.first(where: { $0.name == member }) { return method }
        }
        throw DBusError.unknownMethod("No method \(member) in \(interface ?? "any interface") at \(object.path)")
    }

    private func introspect(_ path: ObjectPath) throws -> String {
        let children = childNames(of: path)
        let object = objects[path]
        guard object != nil || !children.isEmpty || path == .root else {
            throw DBusError.unknownObject("No object at path \(path)")
        }
        return Introspection.xml(for: object, children: children)
    }

    /// First path elements of exported objects below `path`, for `<node name="…"/>` entries.
    private func childNames(of path: ObjectPath) -> [String] {
        let prefix = path == .root ? "/" : path.rawValue + "/"
        let names = objects.keys.compactMap { key -> String? in
            guard key.rawValue.hasPrefix(prefix), key.rawValue != path.rawValue else { return nil }
            return key.rawValue.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return Set(names).sorted()
    }
}

/// Answers `InvalidArgs` naming the expected signature when an incoming call carries another one.
func expect(_ message: Message, _ signature: Signature, for member: String) throws {
    let actual = message.signature
    guard actual == signature else {
        throw DBusError.invalidArgs("\(member) expects signature '\(signature)', got '\(actual)'")
    }
}
