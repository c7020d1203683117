// SnapcastPlugin: quaver-snapcast-plugin, a Snapcast stream plugin (snapserver.conf `controlscript`) for
// Quaver. snapserver starts it and speaks newline-delimited JSON-RPC 2.0 with it on stdin/stdout; the plugin
// answers from quaverd's MPRIS state and drives quaverd over D-Bus. quaverd stays the one owner of playback state.
// The program's code, run by the release's one program (Sources/programs/quaver) when it is called
// `quaver-snapcast-plugin`. May import ControlAPI, DBus, EventLoop, CoverArt, QuaverClient and FoundationEssentials.
import DBus
import EventLoop
import Glibc
import QuaverClient

/// Runs the plugin until snapserver closes its stdin or quaverd's bus goes away.
public func runSnapcastPlugin() throws {
    signal(SIGPIPE, SIG_IGN)  // snapserver gone: a failed write, not a killed plugin
    let options = PluginOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let channel = JSONLines()
    let client: QuaverClient
    do {
        client = try QuaverClient(busAddress: options.busAddress)
    } catch {
        channel.log(.error, "quaver-snapcast-plugin \(error)")
        exit(1)
    }
    let connection = client.connection
    let plugin = StreamPlugin(channel: channel, player: try FollowedPlayer(client: client))
    let signals = [SIGTERM, SIGINT].map { EventLoop.main.onSignal($0) { EventLoop.main.quit() } }
    connection.onDisconnect = { EventLoop.main.quit() }
    plugin.start()
    EventLoop.main.run()
    withExtendedLifetime((plugin, signals)) {}
    connection.close()
}
