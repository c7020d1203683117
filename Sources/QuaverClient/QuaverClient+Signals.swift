import ControlAPI
import DBus

/// quaverd's signals: what changed on its object, and its coming and going on the bus.
extension QuaverClient {
    /// `changed` runs on the loop for every PropertiesChanged of quaverd's object (any interface) and every
    /// Seeked; it is told nothing more, since Position is current only through `Get` (MPRIS, "Position").
    public func onChange(_ changed: @escaping () -> Void) throws -> [SignalSubscription] {
        let properties = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.propertiesInterface,
                                   member: "PropertiesChanged", path: Self.path)
        let seeked = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.playerInterface,
                               member: "Seeked", path: Self.path)
        return [try connection.subscribe(rule: properties) { _ in changed() },
                try connection.subscribe(rule: seeked) { _ in changed() }]
    }

    /// `presence` runs with true when quaverd takes its name on the bus and false when it leaves.
    public func onPresence(_ presence: @escaping (Bool) -> Void) throws -> SignalSubscription {
        try connection.watchNameOwner(ControlAPI.busName) { owner in presence(owner != nil) }
    }
}
