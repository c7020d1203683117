// SnapcastPlugin: quaver-snapcast-plugin, a Snapcast stream plugin (snapserver.conf `controlscript`) for
// Quaver. snapserver starts it and speaks newline-delimited JSON-RPC 2.0 with it on stdin/stdout; the plugin
// answers from quaverd's MPRIS state and drives quaverd over D-Bus. quaverd stays the one owner of playback state.
// The program's code, run by the release's one program (Sources/programs/quaver) when it is called
// `quaver-snapcast-plugin`. May import ControlAPI, DBus, EventLoop, CoverArt and FoundationEssentials.
import DBus
import EventLoop
import Glibc

/// Runs the plugin until snapserver closes its stdin or quaverd's bus goes away.
public func runSnapcastPlugin() throws {
    signal(SIGPIPE, SIG_IGN)  // snapserver gone: a failed write, not a killed plugin
    let options = PluginOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    let channel = JSONLines()
    let connection: Connection
    do {
        connection = try options.busAddress.map { try Connection(address: $0) } ?? Connection.session()
    } catch {
        channel.log(.error, "quaver-snapcast-plugin cannot reach the D-Bus session bus: \(error)")
        exit(1)
    }
    let plugin = StreamPlugin(channel: channel, player: try QuaverPlayer(connection: connection))
    let signals = [SIGTERM, SIGINT].map { EventLoop.main.onSignal($0) { EventLoop.main.quit() } }
    connection.onDisconnect = { EventLoop.main.quit() }
    plugin.start()
    EventLoop.main.run()
    withExtendedLifetime((plugin, signals)) {}
    connection.close()
}
