// Track-change notifications through org.freedesktop.Notifications (Desktop Notifications spec 1.2).
//
//   Player ──PlayerChange──▶ TrackNotifier ──(settles 0.3 s)──▶ Notify ──reply: id──▶ replaces_id of the next
//
// An adapter: learns of the player as an observer and talks to the notification server on the session bus.
// It never waits for the server: Notify goes out without blocking and its reply (the notification's id)
// arrives later on the loop. One call is in flight at a time, so each carries the id of the one before
// and the server replaces it instead of stacking a new one; what changes meanwhile waits as one call.
// Each Notify follows a GetCapabilities, whose `body-markup` says whether the body is escaped: the server
// behind the name may have been replaced since the last track (another desktop's, a restarted one).
import DBus
import EventLoop
import Logging
import PlayerCore

public final class TrackNotifier: PlayerObserver {
    public struct Options {
        /// How long each notification stays; `nil` lets the server decide (expire_timeout −1).
        public var timeoutSeconds: Double?
        /// The cover for a track, as a `file://` URL; `nil` when it has none.
        public var artURL: (Track) -> String?
        /// Quiet time after a change before the notification goes out: a new track's tags and cover
        /// arrive in steps over its first moments, and they make one notification, not several.
        public var settleSeconds: Double

        public init(timeoutSeconds: Double? = nil, settleSeconds: Double = 0.3, artURL: @escaping (Track) -> String?) {
            self.timeoutSeconds = timeoutSeconds
            self.settleSeconds = settleSeconds
            self.artURL = artURL
        }
    }

    static let busName = "org.freedesktop.Notifications"
    static let path: ObjectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The desktop entry's icon (Adwaita has it), for servers that show the app's icon beside the cover.
    static let appIcon = "audio-x-generic"

    private let player: Player
    private let connection: Connection
    private let options: Options
    private let log: Logger
    private var settling: LoopSource?
    /// The track and content last sent: the same again is never sent.
    private var shown: (track: TrackID, content: TrackNotification)?
    /// The server's id for our notification (0: none yet), given as replaces_id.
    private var notificationID: UInt32 = 0
    private var callInFlight = false
    /// Content that changed while a call was in flight: sent when its reply is in.
    private var waiting: (track: TrackID, content: TrackNotification)?
    private var reportedMissingServer = false

    public init(player: Player, connection: Connection, options: Options, log: Logger) {
        self.player = player
        self.connection = connection
        self.options = options
        self.log = log
        player.addObserver(self)
    }

    deinit { settling?.cancel() }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .currentTrack, .status: settle()
        case .metadata(let id) where id == player.currentTrackID: settle()
        default: break
        }
    }

    private func settle() {
        settling?.cancel()
        settling = EventLoop.main.schedule(after: options.settleSeconds) { [weak self] in
            self?.settling = nil
            self?.notifyIfChanged()
        }
    }

    /// Only while playing: pausing, seeking or stopping shows nothing, and a track skipped past while
    /// paused is not announced until it plays.
    private func notifyIfChanged() {
        guard player.status == .playing, let track = player.currentTrack else { return }
        let content = TrackNotification(track: track, artURL: options.artURL(track))
        if let shown, shown.track == track.id, shown.content == content { return }
        if callInFlight {
            waiting = (track.id, content)
        } else {
            send(content, for: track.id)
        }
    }

    private func send(_ content: TrackNotification, for track: TrackID) {
        shown = (track, content)
        callInFlight = true
        connection.call(destination: Self.busName, path: Self.path, interface: Self.interface, method: "GetCapabilities",
                        arguments: [], timeout: 10) { [weak self] result in
            self?.notify(content, takingMarkup: Self.takesMarkup(result))
        }
    }

    private func notify(_ content: TrackNotification, takingMarkup: Bool) {
        connection.call(destination: Self.busName, path: Self.path, interface: Self.interface, method: "Notify",
                        arguments: arguments(content, takingMarkup: takingMarkup), timeout: 10) { [weak self] result in
            self?.replied(result)
        }
    }

    /// GetCapabilities() → as. A server that does not answer it as the spec says gets an escaped body: shown
    /// with `&amp;` at worst, never as markup the tag's author chose.
    private static func takesMarkup(_ result: Result<[DBusValue], DBusError>) -> Bool {
        guard case .success(let values) = result, let capabilities = values.first?.stringArrayValue else { return true }
        return capabilities.contains("body-markup")
    }

    private func replied(_ result: Result<[DBusValue], DBusError>) {
        callInFlight = false
        switch result {
        case .success(let values):
            if case .uint32(let id)? = values.first { notificationID = id }
        case .failure(let error):
            shown = nil  // not shown: a server that appears later gets the next change
            if !reportedMissingServer {
                reportedMissingServer = true
                log.debug("no track notification shown (reported once): \(error)")
            }
        }
        if let next = waiting {
            waiting = nil
            send(next.content, for: next.track)
        }
    }

    /// Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv}, expire_timeout i).
    private func arguments(_ content: TrackNotification, takingMarkup: Bool) -> [DBusValue] {
        var hints: [(key: DBusValue, value: DBusValue)] = [
            (.string("category"), .variant(.string("x-gnome.music"))),
            (.string("urgency"), .variant(.byte(0))),  // low
            (.string("transient"), .variant(.boolean(true))),  // not kept in the server's history
            (.string("desktop-entry"), .variant(.string("quaver"))),
        ]
        if let image = content.imageURL { hints.append((.string("image-path"), .variant(.string(image)))) }
        let timeout = options.timeoutSeconds.map { Int32(clamping: Int(($0 * 1000).rounded())) } ?? -1
        return [.string("Quaver"), .uint32(notificationID), .string(Self.appIcon),
                .string(content.summary), .string(content.body(takingMarkup: takingMarkup)), .array(element: "s", []),
                .dictionary(key: "s", value: "v", hints), .int32(timeout)]
    }
}
