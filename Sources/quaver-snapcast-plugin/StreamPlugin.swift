import ControlAPI
import DBus
import EventLoop
import Foundation
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
    private var lastSent: NSDictionary?

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
        guard lastSent != properties as NSDictionary else { return }
        lastSent = properties as NSDictionary
        channel.notify("Plugin.Stream.Player.Properties", properties)
    }

    private func handle(_ message: [String: Any]?) {
        guard let message else { return reply(nil, error: (-32700, "Parse error")) }
        let id = message["id"]
        if message["method"] == nil { return }  // a response: the plugin sends no requests
        guard let method = message["method"] as? String else { return reply(id, error: (-32600, "Invalid Request")) }
        let params = message["params"] as? [String: Any] ?? [:]
        switch method {
        case "Plugin.Stream.Player.GetProperties":
            player.read()  // the next Properties notification carries the current position
            reply(id, result: SnapcastProperties.from(player.properties, artwork: artwork))
        case "Plugin.Stream.Player.GetMetadata":
            reply(id, result: SnapcastProperties.metadata(player.metadata,
                                                          artwork: artwork))
        case "Plugin.Stream.Player.Control":
            control(params["command"] as? String ?? "", params["params"] as? [String: Any] ?? [:], id: id)
        case "Plugin.Stream.Player.SetProperty":
            setProperty(params, id: id)
        default:
            reply(id, error: (-32601, "Method not found"))
        }
    }

    private func control(_ command: String, _ params: [String: Any], id: Any?) {
        let done = answer(id)
        switch command.lowercased() {
        case "play": player.command("Play", done: done)
        case "pause": player.command("Pause", done: done)
        case "playpause": player.command("PlayPause", done: done)
        case "stop": player.command("Stop", done: done)
        case "next": player.command("Next", done: done)
        case "previous": player.command("Previous", done: done)
        case "seek":
            guard let offset = number(params["offset"] ?? params["Offset"]) else { return invalid(id, "seek needs offset") }
            player.command("Seek", [.int64(microseconds(offset))], done: done)
        case "setposition":
            guard let position = number(params["position"] ?? params["Position"]), position >= 0 else {
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
    private func setProperty(_ params: [String: Any], id: Any?) {
        var wanted = params
        if let name = params["property"] as? String, let value = params["value"] { wanted = [name: value] }
        guard wanted.count == 1, let (name, value) = wanted.first else { return invalid(id, "one property at a time") }
        let done = answer(id)
        switch name {
        case "volume":
            guard let percent = number(value) else { return invalid(id, "volume is a number from 0 to 100") }
            player.set(PlayerProperty.volume, .double(percent.clamped(to: 0...100) / 100), done: done)
        case "rate":
            guard let rate = number(value), rate > 0 else { return invalid(id, "rate is a number above 0") }
            player.set(PlayerProperty.rate, .double(rate), done: done)
        case "shuffle":
            guard let shuffle = boolean(value) else { return invalid(id, "shuffle is true or false") }
            player.set(PlayerProperty.shuffle, .boolean(shuffle), done: done)
        case "loopStatus":
            guard let text = value as? String,
                  let status = ControlAPI.LoopStatus.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
            else { return invalid(id, "loopStatus is none, track or playlist") }
            player.set(PlayerProperty.loopStatus, .string(status.rawValue), done: done)
        default:
            invalid(id, "unknown property \"\(name)\"")
        }
    }

    private func answer(_ id: Any?) -> (String?) -> Void {
        { [weak self] error in
            if let error { self?.reply(id, error: (-32603, error)) } else { self?.reply(id, result: "ok") }
        }
    }

    private func invalid(_ id: Any?, _ why: String) { reply(id, error: (-32602, "Invalid params: \(why)")) }

    /// Requests without an id are notifications: they get no reply.
    private func reply(_ id: Any?, result: Any) {
        guard let id else { return }
        channel.send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    private func reply(_ id: Any?, error: (code: Int, message: String)) {
        channel.send(["jsonrpc": "2.0", "id": id ?? NSNull(), "error": ["code": error.code, "message": error.message]])
    }

    /// JSONSerialization reads both numbers and booleans as NSNumber, and `as? Bool` accepts any 0 or 1:
    /// only the boolean subclass is a JSON true or false (measured on swift-corelibs-foundation).
    private static let booleanType = type(of: NSNumber(value: true))

    private func boolean(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, type(of: number) == Self.booleanType else { return nil }
        return number.boolValue
    }

    /// A JSON number (not a boolean), finite.
    private func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, type(of: number) != Self.booleanType else { return nil }
        return number.doubleValue.isFinite ? number.doubleValue : nil
    }

    /// Seconds to MPRIS microseconds, bounded so the conversion cannot overflow.
    private func microseconds(_ seconds: Double) -> Int64 { Int64((seconds.clamped(to: -1e9...1e9) * 1_000_000).rounded()) }
}
