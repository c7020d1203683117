import CDBus

/// `org.freedesktop.DBus.Properties` for one exported object, derived from its interface descriptions.
struct PropertiesInterface {
    let object: ExportedObject

    func handle(_ member: String, _ message: Message) throws -> [DBusValue] {
        switch member {
        case "Get":
            try expect(message, "ss", for: member)
            let (interface, name) = try names(message)
            return [.variant(try value(of: try find(name, in: interface)))]
        case "Set":
            try expect(message, "ssv", for: member)
            let (interface, name) = try names(message)
            try set(try find(name, in: interface), to: try message.arguments()[2])
            return []
        default:
            throw DBusError.unknownMethod("No method \(member) in \(StandardInterface.properties)")
        }
    }

    private struct LargeValue: Error {}

    /// What GetAll answers: a reply already written, or the values for `Connection.reply(to:with:)`.
    enum GetAllAnswer {
        case written(Message)
        case values([DBusValue])
    }

    /// GetAll (`a{sv}` of every property whose getter succeeds, sorted by name), each value written into the
    /// reply as its getter gives it, checked as it is written (`ValueWriter`): the call every shell makes on
    /// every change. The values themselves are answered instead when one fails its check while written (the
    /// message is spoilt; the answer is then an `InvalidArgs` error, as before) or is large (thousands of track
    /// ids: marshalled off the loop, `Connection.reply(to:with:)`).
    func getAll(_ message: Message) throws -> GetAllAnswer {
        try expect(message, "s", for: "GetAll")
        let interface = try message.arguments()[0].stringValue ?? ""
        let properties = interface.isEmpty ? object.readablePropertiesOfAllInterfaces : try readableProperties(of: interface)
        let reply = Message(owning: dbus_message_new_method_return(message.raw))
        do {
            try ValueWriter.appendVariantDictionary(to: reply.raw) { dictionary in
                for property in properties {
                    guard let value = try? value(of: property) else { continue }
                    guard !value.isLarge else { throw LargeValue() }
                    try ValueWriter.appendEntry(property.name, property.type, value, to: &dictionary)
                }
            }
            return .written(reply)
        } catch {
            return .values([allValues(properties)])
        }
    }

    private func names(_ message: Message) throws -> (interface: String, property: String) {
        let arguments = try message.arguments()
        return (arguments[0].stringValue ?? "", arguments[1].stringValue ?? "")
    }

    private func find(_ interface: String) throws -> InterfaceDescription {
        guard let found = object.interface(named: interface) else {
            throw DBusError.unknownInterface("No interface \(interface) at \(object.path)")
        }
        return found
    }

    private func readableProperties(of interface: String) throws -> [ReadableProperty] {
        guard let index = object.interfaces.firstIndex(where: { $0.name == interface }) else {
            throw DBusError.unknownInterface("No interface \(interface) at \(object.path)")
        }
        return object.readablePropertiesByInterface[index]
    }

    /// An empty interface name searches every interface, as the specification allows.
    private func find(_ name: String, in interface: String) throws -> InterfaceDescription.Property {
        let candidates = interface.isEmpty ? object.interfaces : [try find(interface)]
        for description in candidates {
            if let property = description.properties.first(where: { $0.name == name }) { return property }
        }
        throw DBusError.unknownProperty("No property \(name) in \(interface.isEmpty ? "any interface" : interface)")
    }

    private func value(of property: InterfaceDescription.Property) throws -> DBusValue {
        guard property.access.readable else { throw DBusError.accessDenied("Property \(property.name) is write-only") }
        return try checked(property.get(), of: property.name, property.type)
    }

    private func value(of property: ReadableProperty) throws -> DBusValue {
        try checked(property.get(), of: property.name, property.type)
    }

    /// A getter's value, refused if it does not have the declared type (it would lie to every client).
    private func checked(_ value: DBusValue, of name: String, _ type: Signature) throws -> DBusValue {
        guard value.hasSignature(type) else {
            throw DBusError.failed("Property \(name) produced '\(value.signature)', declared '\(type)'")
        }
        return value
    }

    /// `a{sv}` of every property whose getter succeeds, sorted by name (as `variantDictionary` sorts): one
    /// failing getter must not fail `GetAll`. `properties` are already readable, sorted and one per name.
    private func allValues(_ properties: [ReadableProperty]) -> DBusValue {
        var entries: [(key: DBusValue, value: DBusValue)] = []
        entries.reserveCapacity(properties.count)
        for property in properties {
            if let value = try? value(of: property) { entries.append((key: .string(property.name), value: .variant(value))) }
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    private func set(_ property: InterfaceDescription.Property, to argument: DBusValue) throws {
        guard property.access.writable, let setter = property.set else {
            throw DBusError.propertyReadOnly("Property \(property.name) is read-only")
        }
        // The call's signature was checked as "ssv", so `argument` is a variant: compare what it holds.
        let value: DBusValue
        if case .variant(let inner) = argument { value = inner } else { value = argument }
        guard value.hasSignature(property.type) else {
            throw DBusError.invalidArgs("Property \(property.name) has type '\(property.type)', got '\(value.signature)'")
        }
        try setter(value)
    }
}
