import ControlAPI
import DBus
import EventLoop
import QuaverClient

/// The stream plugin's side of snapserver's JSON-RPC (snapserver 0.26, measured with it):
/// - it announces itself with `Plugin.Stream.Ready`, then snapserver asks `Plugin.Stream.Player.GetProperties`;
/// - `Plugin.Stream.Player.Control` carries `{"command": "play", "params": {…}}` with the commands play,
///   pause, playPause, stop, next, previous, seek (`offset`, seconds) and setPosition (`position`, seconds);
/// - `Plugin.Stream.Player.SetProperty` carries `{"volume": 50}` (also `shuffle`, `loopStatus`, `rate`);
/// - the plugin sends `Plugin.Stream.Player.Properties` with every property and the track's `metadata`
///   whenever quaverd's change it.
/// Replies come once quaverd has answered, so an error from quaverd reaches the Snapcast client.
final class StreamPlugin {
    private let channel: JSONLines
    private let player: FollowedPlayer
    private let artwork = Artwork()
    private var lastSent: [String: JSONValue]?

    init(channel: JSONLines, player: FollowedPlayer) {
        self.channel = channel
        self.player = player
    }

    func start() {
        player.changed = { [unowned self] in sendProperties() }
        channel.start(received: { [unowned self] in handle($0) }, closed: { EventLoop.main.quit() })
        channel.notify("Plugin.Stream.Ready")
    }

    /// Every property, when one differs from what was last sent.
    private func sendProperties() {
        let properties = SnapcastProperties.from(player.properties, artwork: artwork)
        guard lastSent != properties else { return }
        lastSent = properties
        channel.notify("Plugin.Stream.Player.Properties", properties)
    }

    private func handle(_ message: [String: JSONValue]?) {
        guard let message else { return reply(nil, error: (-32700, "Parse error")) }
        let id = message["id"]
        if message["method"] == nil { return }  // a response: the plugin sends no requests
        guard let method = message["method"]?.string else { return reply(id, error: (-32600, "Invalid Request")) }
        let params = message["params"]?.object ?? [:]
        switch method {
        case "Plugin.Stream.Player.GetProperties":
            player.read()  // the next Properties notification carries the current position
            reply(id, result: .object(SnapcastProperties.from(player.properties, artwork: artwork)))
        case "Plugin.Stream.Player.GetMetadata":
            reply(id, result: .object(SnapcastProperties.metadata(player.metadata, artwork: artwork)))
        case "Plugin.Stream.Player.Control":
            control(params["command"]?.string ?? "", params["params"]?.object ?? [:], id: id)
        case "Plugin.Stream.Player.SetProperty":
            setProperty(params, id: id)
        default:
            reply(id, error: (-32601, "Method not found"))
        }
    }

    private func control(_ command: String, _ params: [String: JSONValue], id: JSONValue?) {
        let done = answer(id)
        switch command.lowercased() {
        case "play": player.command("Play", done: done)
        case "pause": player.command("Pause", done: done)
        case "playpause": player.command("PlayPause", done: done)
        case "stop": player.command("Stop", done: done)
        case "next": player.command("Next", done: done)
        case "previous": player.command("Previous", done: done)
        case "seek":
            guard let offset = (params["offset"] ?? params["Offset"])?.number else { return invalid(id, "seek needs offset") }
            player.command("Seek", [.int64(microseconds(offset))], done: done)
        case "setposition":
            guard let position = (params["position"] ?? params["Position"])?.number, position >= 0 else {
                return invalid(id, "setPosition needs a position of 0 or more")
            }
            guard let track = player.metadata[MetadataKey.trackID]?.objectPathValue else {
                return reply(id, error: (-32603, "no current track"))
            }
            player.command("SetPosition", [.objectPath(track), .int64(microseconds(position))], done: done)
        default:
            invalid(id, "unknown command \"\(command)\"")
        }
    }

    /// snapserver 0.26 sends `{"volume": 50}`; later versions `{"property": "volume", "value": 50}`.
    private func setProperty(_ params: [String: JSONValue], id: JSONValue?) {
        var wanted = params
        if let name = params["property"]?.string, let value = params["value"] { wanted = [name: value] }
        guard wanted.count == 1, let (name, value) = wanted.first else { return invalid(id, "one property at a time") }
        let done = answer(id)
        switch name {
        case "volume":
            guard let percent = value.number else { return invalid(id, "volume is a number from 0 to 100") }
            player.set(PlayerProperty.volume, .double(percent.clamped(to: 0...100) / 100), done: done)
        case "rate":
            guard let rate = value.number, rate > 0 else { return invalid(id, "rate is a number above 0") }
            player.set(PlayerProperty.rate, .double(rate), done: done)
        case "shuffle":
            guard let shuffle = value.bool else { return invalid(id, "shuffle is true or false") }
            player.set(PlayerProperty.shuffle, .boolean(shuffle), done: done)
        case "loopStatus":
            guard let text = value.string,
                  let status = ControlAPI.LoopStatus.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
            else { return invalid(id, "loopStatus is none, track or playlist") }
            player.set(PlayerProperty.loopStatus, .string(status.rawValue), done: done)
        default:
            invalid(id, "unknown property \"\(name)\"")
        }
    }

    private func answer(_ id: JSONValue?) -> (String?) -> Void {
        { [weak self] error in
            if let error { self?.reply(id, error: (-32603, error)) } else { self?.reply(id, result: "ok") }
        }
    }

    private func invalid(_ id: JSONValue?, _ why: String) { reply(id, error: (-32602, "Invalid params: \(why)")) }

    /// Requests without an id are notifications: they get no reply.
    private func reply(_ id: JSONValue?, result: JSONValue) {
        guard let id else { return }
        channel.send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    private func reply(_ id: JSONValue?, error: (code: Int, message: String)) {
        channel.send(["jsonrpc": "2.0", "id": id ?? .null, "error": ["code": .integer(error.code), "message": .string(error.message)]])
    }

    /// Seconds to MPRIS microseconds, bounded so the conversion cannot overflow.
    private func microseconds(_ seconds: Double) -> Int64 { Int64((seconds.clamped(to: -1e9...1e9) * 1_000_000).rounded()) }
}
