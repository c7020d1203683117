import ControlAPI
import DBus

/// quaverd's MPRIS Player properties kept current: re-read on each change quaverd signals and when it
/// arrives on the bus, emptied when it leaves. Nothing blocks: a program's loop keeps serving its own
/// peers while quaverd answers.
public final class FollowedPlayer {
    public let client: QuaverClient
    /// The Player interface's properties as last read (keys in `PlayerProperty`); empty while quaverd is absent.
    public private(set) var properties: [String: DBusValue] = [:]
    /// Runs after every read of the properties (a change, or quaverd arriving or leaving).
    public var changed: () -> Void = {}
    private var subscriptions: [SignalSubscription] = []
    private var reading = false
    private var readAgain = false

    public init(client: QuaverClient) throws {
        self.client = client
        subscriptions = try client.onChange { [unowned self] in read() }
        subscriptions.append(try client.onPresence { [unowned self] present in
            if present { read() } else { properties = [:]; changed() }
        })
    }

    /// Re-reads every property (Position is current only through Get); changes that arrive meanwhile
    /// cause one more read, not one each.
    public func read() {
        guard !reading else { readAgain = true; return }
        reading = true
        client.getAll(ControlAPI.playerInterface) { [unowned self] player in
            reading = false
            properties = player
            changed()
            if readAgain { readAgain = false; read() }
        }
    }

    /// The current track's Metadata map; empty with no track or quaverd absent.
    public var metadata: [String: DBusValue] { properties[PlayerProperty.metadata]?.dictionaryValue ?? [:] }

    /// Calls a method of the MPRIS Player interface; `done` gets nil or the error's text.
    public func command(_ method: String, _ arguments: [DBusValue] = [], done: @escaping (String?) -> Void) {
        client.call(ControlAPI.playerInterface, method, arguments) { result in
            if case .failure(let error) = result { done(error.plainText) } else { done(nil) }
        }
    }

    /// Sets an MPRIS Player property; `done` gets nil or the error's text.
    public func set(_ property: String, _ value: DBusValue, done: @escaping (String?) -> Void) {
        client.set(ControlAPI.playerInterface, property, value) { done($0?.plainText) }
    }
}
