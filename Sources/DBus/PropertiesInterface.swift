/// `org.freedesktop.DBus.Properties` for one exported object, derived from its interface descriptions.
struct PropertiesInterface {
    let object: ExportedObject

    func handle(_ member: String, _ message: Message) throws -> [DBusValue] {
        switch member {
        case "Get":
            try expect(message, "ss", for: member)
            let (interface, name) = try names(message)
            return [.variant(try value(of: try find(name, in: interface)))]
        case "GetAll":
            try expect(message, "s", for: member)
            let interface = try message.arguments()[0].stringValue ?? ""
            return [allValues(in: interface.isEmpty ? object.interfaces : [try find(interface)])]
        case "Set":
            try expect(message, "ssv", for: member)
            let (interface, name) = try names(message)
            try set(try find(name, in: interface), to: try message.arguments()[2])
            return []
        default:
            throw DBusError.unknownMethod("No method \(member) in \(StandardInterface.properties)")
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

    /// An empty interface name searches every interface, as the specification allows.
    private func find(_ name: String, in interface: String) throws -> InterfaceDescription.Property {
        let candidates = interface.isEmpty ? object.interfaces : [try find(interface)]
        for description in candidates {
            if let property = description.properties.first(where: { $0.name == name }) { return property }
        }
        throw DBusError.unknownProperty("No property \(name) in \(interface.isEmpty ? "any interface" : interface)")
    }

    /// The getter's value, refused if it does not have the declared type (it would lie to every client).
    private func value(of property: InterfaceDescription.Property) throws -> DBusValue {
        guard property.access.readable else { throw DBusError.accessDenied("Property \(property.name) is write-only") }
        let value = try property.get()
        guard value.signature == property.type else {
            throw DBusError.failed("Property \(property.name) produced '\(value.signature)', declared '\(property.type)'")
        }
        return value
    }

    /// `a{sv}` of every readable property whose getter succeeds: one failing getter must not fail `GetAll`.
    private func allValues(in interfaces: [InterfaceDescription]) -> DBusValue {
        var values: [String: DBusValue] = [:]
        for property in interfaces.flatMap(\.properties) where property.access.readable {
            values[property.name] = try? value(of: property)
        }
        return .variantDictionary(values)
    }

    private func set(_ property: InterfaceDescription.Property, to argument: DBusValue) throws {
        guard property.access.writable, let setter = property.set else {
            throw DBusError.propertyReadOnly("Property \(property.name) is read-only")
        }
        // The call's signature was checked as "ssv", so `argument` is a variant: compare what it holds.
        let value: DBusValue
        if case .variant(let inner) = argument { value = inner } else { value = argument }
        guard value.signature == property.type else {
            throw DBusError.invalidArgs("Property \(property.name) has type '\(property.type)', got '\(value.signature)'")
        }
        try setter(value)
    }
}
