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
    /// reply as its getter gives it, checked as it is written: the call every shell makes on every change. A
    /// `b`, `d`, `x` or `s` property is written from the Swift value its getter gives, a prepared one
    /// (`PreparedValue`) from what it keeps, any other through `ValueWriter`; while only fixed-size values
    /// changed since the last reply for the same interface, that reply is copied instead (`KeptReply`). The
    /// values themselves are answered instead when one fails its check while written (the message is spoilt;
    /// the answer is then an `InvalidArgs` error, as before) or is large (thousands of track ids: marshalled
    /// off the loop, `Connection.reply(to:with:)`).
    func getAll(_ message: Message) throws -> GetAllAnswer {
        try expect(message, "s", for: "GetAll")
        let interface = try message.arguments()[0].stringValue ?? ""
        let slot = interface.isEmpty ? object.interfaces.count : try interfaceIndex(interface)
        let properties = slot == object.interfaces.count ? object.readablePropertiesOfAllInterfaces
            : object.readablePropertiesByInterface[slot]
        let reads = properties.map(read)
        if let kept = object.keptReplies[slot], let reply = kept.answer(to: message, reads) { return .written(reply) }
        let reply = Message(owning: dbus_message_new_method_return(message.raw))
        do {
            try ValueWriter.appendVariantDictionary(to: reply.raw) { dictionary in
                for index in properties.indices { try write(reads[index], of: properties[index], to: &dictionary) }
            }
        } catch {
            object.keptReplies[slot] = nil
            return .values([allValues(properties)])
        }
        object.keptReplies[slot] = KeptReply(reply, reads)
        return .written(reply)
    }

    /// What a property's getter gives, `absent` when it fails or gives a value of another type.
    private func read(_ property: ReadableProperty) -> KeptReply.Read {
        switch property.reading {
        case .boolean(let get): return (try? get()).map { .boolean($0) } ?? .absent
        case .double(let get): return (try? get()).map { .double($0) } ?? .absent
        case .int64(let get): return (try? get()).map { .int64($0) } ?? .absent
        case .string(let get): return (try? get()).map { .string($0) } ?? .absent
        case .prepared(let get):
            guard let value = try? get(), value.signature == property.type else { return .absent }
            return .prepared(value)
        case .value(let get):
            guard let value = try? get(), value.hasSignature(property.type) else { return .absent }
            return .value(value)
        }
    }

    /// One property's entry, or none when its getter failed.
    private func write(_ read: KeptReply.Read, of property: ReadableProperty, to dictionary: inout DBusMessageIter) throws {
        let name = property.cName
        switch read {
        case .absent: return
        case .boolean(let value):
            try ValueWriter.appendEntry(name, "b", TypeCode.boolean, dbus_bool_t(value ? 1 : 0), to: &dictionary)
        case .double(let value): try ValueWriter.appendEntry(name, "d", TypeCode.double, value, to: &dictionary)
        case .int64(let value): try ValueWriter.appendEntry(name, "x", TypeCode.int64, value, to: &dictionary)
        case .string(let value): try ValueWriter.appendEntry(name, string: value, to: &dictionary)
        case .prepared(let value): try ValueWriter.appendEntry(name, value, to: &dictionary)
        case .value(let value):
            guard !value.isLarge else { throw LargeValue() }
            try ValueWriter.appendEntry(name, property.type, value, to: &dictionary)
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

    private func interfaceIndex(_ interface: String) throws -> Int {
        guard let index = object.interfaces.firstIndex(where: { $0.name == interface }) else {
            throw DBusError.unknownInterface("No interface \(interface) at \(object.path)")
        }
        return index
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
        property.askedByName?()
        return try checked(property.value(), of: property.name, property.type)
    }

    private func value(of property: ReadableProperty) throws -> DBusValue {
        try checked(property.reading.value(), of: property.name, property.type)
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
