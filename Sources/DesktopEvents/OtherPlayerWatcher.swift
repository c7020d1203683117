import ControlAPI
import DBus

/// Pauses when another MPRIS player starts playing (off by default).
///
/// Listens to every `PropertiesChanged` of `org.mpris.MediaPlayer2.Player` on the session bus.
/// playerctld re-sends the signals of the player it follows under its own name, so it is ignored,
/// and so are our own signals (the connection that owns our MPRIS name must be the one given here).
public final class OtherPlayerWatcher {
    static let playerctld = "org.mpris.MediaPlayer2.playerctld"

    private let bus: Connection
    private let playback: AutomaticPlayback
    private var subscriptions: [SignalSubscription] = []
    private var playerctldOwner: String?

    public init(sessionBus: Connection, playback: AutomaticPlayback) {
        bus = sessionBus
        self.playback = playback
    }

    public func start() throws {
        let rule = MatchRule(interface: ControlAPI.propertiesInterface, member: "PropertiesChanged",
                             path: ObjectPath(stringLiteral: ControlAPI.objectPath), arg0: ControlAPI.playerInterface)
        subscriptions.append(try bus.subscribe(rule: rule) { [weak self] signal in self?.changed(signal) })
        subscriptions.append(try bus.watchNameOwner(Self.playerctld) { [weak self] in self?.playerctldOwner = $0 })
    }

    public func stop() { subscriptions = [] }

    private func changed(_ signal: Signal) {
        guard signal.arguments.count >= 2, let changed = signal.arguments[1].dictionaryValue,
              let sender = signal.sender else { return }
        let started = OtherPlayerPolicy.startedPlaying(sender: sender, status: changed[PlayerProperty.playbackStatus]?.stringValue,
                                                       ownName: bus.uniqueName, playerctld: playerctldOwner)
        if started { playback.pause(.otherPlayerStarted(busName: sender)) }
    }
}

/// Whether a PropertiesChanged signal means that another player started playing.
enum OtherPlayerPolicy {
    static func startedPlaying(sender: String, status: String?, ownName: String, playerctld: String?) -> Bool {
        status == "Playing" && sender != ownName && sender != playerctld
    }
}
