import Glibc

/// One interface of an exported object, described once: method dispatch, `org.freedesktop.DBus.Properties`
/// and the introspection XML are all derived from it.
public struct InterfaceDescription {
    public let name: String
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [SignalDescription]

    /// Descriptions are code, not runtime data: an invalid interface or member name is a programming error.
    public init(name: String, methods: [Method] = [], properties: [Property] = [], signals: [SignalDescription] = []) {
        precondition((try? Names.checkInterface(name)) != nil, "invalid interface name \(name)")
        for member in methods.map(\.name) + properties.map(\.name) + signals.map(\.name) {
            precondition((try? Names.checkMember(member)) != nil, "invalid member name \(member) in \(name)")
        }
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    public struct Argument {
        public let name: String
        public let type: Signature
        public init(_ name: String, _ type: Signature) {
            precondition(type.isSingleCompleteType, "argument \(name) needs one complete type, not \(type)")
            self.name = name
            self.type = type
        }
    }

    public struct Method {
        public let name: String
        public let inputs: [Argument]
        public let outputs: [Argument]
        /// Runs on the loop with arguments already checked against `inputs`.
        let body: Body

        enum Body {
            /// Returns values matching `outputs` at once.
            case immediate((MethodCall) throws -> [DBusValue])
            /// Answers through the `PendingReply`, now or on a later turn of the loop; a throw answers at once.
            case later((MethodCall, PendingReply) throws -> Void)
        }

        public init(name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                    handler: @escaping (MethodCall) throws -> [DBusValue]) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            body = .immediate(handler)
        }

        /// A method that may answer on a later turn of the loop (see `PendingReply`).
        public init(name: String, inputs: [Argument] = [], outputs: [Argument] = [],
                    answeringLater handler: @escaping (MethodCall, PendingReply) throws -> Void) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            body = .later(handler)
        }

        var inputSignature: Signature { Signature(trusted: inputs.map(\.type.rawValue).joined()) }
        var outputSignature: Signature { Signature(trusted: outputs.map(\.type.rawValue).joined()) }
    }

    public enum Access: String {
        case read, write, readWrite = "readwrite"
        var readable: Bool { self != .write }
        var writable: Bool { self != .read }
    }

    public struct Property {
        public let name: String
        public let type: Signature
        public let access: Access
        /// What the getter gives. May throw: `Get` then answers that error, and `GetAll` leaves the property
        /// out instead of failing (KDE and playerctl drop a player whose `GetAll` fails).
        let reading: Reading
        /// Receives a value already checked against `type`; throw a `DBusError` to refuse it.
        public let set: ((DBusValue) throws -> Void)?
        /// Runs before the getter when a client names this property (`Get`), not when it reads them all (`GetAll`):
        /// work worth doing only for a client that wants this value, such as connecting to the sound server to list
        /// its outputs, which a status bar reading everything every second should not set off.
        let askedByName: (() -> Void)?

        /// A property of any type, its getter giving a `DBusValue` (checked against `type` when read).
        public init(name: String, type: Signature, access: Access = .read, get: @escaping () throws -> DBusValue,
                    set: ((DBusValue) throws -> Void)? = nil, askedByName: (() -> Void)? = nil) {
            self.init(name, type, access, .value(get), set, askedByName)
        }

        /// `b`, `d`, `x` and `s` properties, the ones a player answers in every `GetAll`: their getters give the
        /// Swift value, which `GetAll` writes into its reply without making a `DBusValue` (`Reading`). Writable
        /// exactly when given a setter.
        public init(name: String, get: @escaping () throws -> Bool, set: ((DBusValue) throws -> Void)? = nil) {
            self.init(name, "b", set == nil ? .read : .readWrite, .boolean(get), set)
        }

        public init(name: String, get: @escaping () throws -> Double, set: ((DBusValue) throws -> Void)? = nil) {
            self.init(name, "d", set == nil ? .read : .readWrite, .double(get), set)
        }

        public init(name: String, get: @escaping () throws -> Int64, set: ((DBusValue) throws -> Void)? = nil) {
            self.init(name, "x", set == nil ? .read : .readWrite, .int64(get), set)
        }

        public init(name: String, get: @escaping () throws -> String, set: ((DBusValue) throws -> Void)? = nil) {
            self.init(name, "s", set == nil ? .read : .readWrite, .string(get), set)
        }

        /// A property whose getter gives a value prepared for writing (`PreparedValue`), checked against
        /// `type` when read: a large one kept between reads, such as the current track's Metadata.
        public init(name: String, type: Signature, get: @escaping () throws -> PreparedValue) {
            self.init(name, type, .read, .prepared(get), nil)
        }

        private init(_ name: String, _ type: Signature, _ access: Access, _ reading: Reading,
                     _ set: ((DBusValue) throws -> Void)?, _ askedByName: (() -> Void)? = nil) {
            precondition(type.isSingleCompleteType, "property \(name) needs one complete type, not \(type)")
            precondition(access.writable == (set != nil), "property \(name): writable exactly when it has a setter")
            self.name = name
            self.type = type
            self.access = access
            self.reading = reading
            self.set = set
            self.askedByName = askedByName
        }

        /// The getter's value (not yet checked against `type`).
        public func value() throws -> DBusValue { try reading.value() }
    }

    /// A getter, by the kind of value it gives.
    enum Reading {
        case boolean(() throws -> Bool)
        case double(() throws -> Double)
        case int64(() throws -> Int64)
        case string(() throws -> String)
        case prepared(() throws -> PreparedValue)
        case value(() throws -> DBusValue)

        func value() throws -> DBusValue {
            switch self {
            case .boolean(let get): return .boolean(try get())
            case .double(let get): return .double(try get())
            case .int64(let get): return .int64(try get())
            case .string(let get): return .string(try get())
            case .prepared(let get): return try get().value
            case .value(let get): return try get()
            }
        }
    }
}

public struct SignalDescription {
    public let name: String
    public let arguments: [InterfaceDescription.Argument]
    public init(name: String, arguments: [InterfaceDescription.Argument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An object served at `path` with its interfaces. Properties, Introspectable and Peer are added for it.
public final class ExportedObject {
    public let path: ObjectPath
    public let interfaces: [InterfaceDescription]
    /// What `GetAll` answers from, worked out once rather than on every call: per interface (same order as
    /// `interfaces`) and for all of them, the readable properties sorted by name, one per name (the last
    /// readable one declared, as a dictionary filled in declaration order would keep).
    let readablePropertiesByInterface: [[ReadableProperty]]
    let readablePropertiesOfAllInterfaces: [ReadableProperty]
    /// The last GetAll reply per interface (same order as `interfaces`, then the one for all of them), to be
    /// answered again while only fixed-size values change (`KeptReply`).
    var keptReplies: [KeptReply?]

    public init(path: ObjectPath, interfaces: [InterfaceDescription]) {
        self.path = path
        self.interfaces = interfaces
        readablePropertiesByInterface = interfaces.map { Self.readableByName($0.properties) }
        readablePropertiesOfAllInterfaces = Self.readableByName(interfaces.flatMap(\.properties))
        keptReplies = Array(repeating: nil, count: interfaces.count + 1)
    }

    private static func readableByName(_ properties: [InterfaceDescription.Property]) -> [ReadableProperty] {
        var lastByName: [String: InterfaceDescription.Property] = [:]
        for property in properties where property.access.readable { lastByName[property.name] = property }
        return lastByName.values.sorted { $0.name < $1.name }.map(ReadableProperty.init)
    }

    func interface(named name: String) -> InterfaceDescription? { interfaces.first { $0.name == name } }
}

/// A readable property as GetAll reads it: a class, so the loop over an object's properties copies one
/// reference each, not the description's four (the loop's copies were 19 retains and releases a GetAll(Player)),
/// with its name kept as a C string for the reply's keys.
final class ReadableProperty {
    let name: String
    let type: Signature
    let reading: InterfaceDescription.Reading
    let cName: UnsafeMutablePointer<CChar>

    init(_ property: InterfaceDescription.Property) {
        name = property.name
        type = property.type
        reading = property.reading
        cName = strdup(property.name)
    }

    deinit { free(cName) }
}

/// An incoming method call, as a handler sees it.
public struct MethodCall {
    public let path: ObjectPath
    /// Absent when the caller did not name one (D-Bus allows it).
    public let interface: String?
    public let member: String
    /// The caller's unique name.
    public let sender: String?
    /// Already checked against the method's declared input signature.
    public let arguments: [DBusValue]
}
