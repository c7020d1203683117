import ControlAPI
import DBus
import EventLoop

/// quaverd as the plugin sees it: the MPRIS Player properties, followed (PropertiesChanged, Seeked, the
/// name's owner), and the calls that drive it. Every call is asynchronous: the plugin's loop keeps
/// answering snapserver while quaverd works.
final class QuaverPlayer {
    static let path = ObjectPath(stringLiteral: ControlAPI.objectPath)
    let connection: Connection
    /// The Player interface's properties as last read; empty while quaverd is not on the bus.
    private(set) var properties: [String: DBusValue] = [:]
    private var subscriptions: [SignalSubscription] = []
    private var reading = false
    private var readAgain = false
    /// Called after every read of the properties (a change, or quaverd arriving or leaving).
    var changed: () -> Void = {}

    init(connection: Connection) throws {
        self.connection = connection
        let player = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.propertiesInterface,
                               member: "PropertiesChanged", path: Self.path)
        let seeked = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.playerInterface,
                               member: "Seeked", path: Self.path)
        subscriptions = [
            try connection.subscribe(rule: player) { [unowned self] _ in read() },
            try connection.subscribe(rule: seeked) { [unowned self] _ in read() },
            try connection.watchNameOwner(ControlAPI.busName) { [unowned self] owner in
                if owner == nil { properties = [:]; changed() } else { read() }
            },
        ]
    }

    /// Re-reads every property (Position is current only through Get); changes that arrive meanwhile
    /// cause one more read, not one each.
    func read() {
        guard !reading else { readAgain = true; return }
        reading = true
        connection.call(destination: ControlAPI.busName, path: Self.path, interface: ControlAPI.propertiesInterface,
                        method: "GetAll", arguments: [.string(ControlAPI.playerInterface)]) { [unowned self] result in
            reading = false
            properties = (try? result.get())?.first?.dictionaryValue ?? [:]
            changed()
            if readAgain { readAgain = false; read() }
        }
    }

    /// Calls a method of the MPRIS Player interface; `done` gets nil or the error's text.
    func command(_ method: String, _ arguments: [DBusValue] = [], done: @escaping (String?) -> Void) {
        call(ControlAPI.playerInterface, method, arguments, done: done)
    }

    /// Sets an MPRIS Player property; `done` gets nil or the error's text.
    func set(_ property: String, _ value: DBusValue, done: @escaping (String?) -> Void) {
        call(ControlAPI.propertiesInterface, "Set",
             [.string(ControlAPI.playerInterface), .string(property), .variant(value)], done: done)
    }

    private func call(_ interface: String, _ method: String, _ arguments: [DBusValue], done: @escaping (String?) -> Void) {
        connection.call(destination: ControlAPI.busName, path: Self.path, interface: interface, method: method,
                        arguments: arguments) { result in
            switch result {
            case .success: done(nil)
            case .failure(let error): done(error.message.isEmpty ? error.name : error.message)
            }
        }
    }
}
