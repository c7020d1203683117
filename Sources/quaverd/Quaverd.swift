// quaverd (the module): quaverd's entry point (options, logging, exit status); `Daemon` wires the modules together.
// The program's code, run by the release's one program (Sources/programs/quaver) when it is called `quaverd`.
// May import every module below the programs (docs/ARCHITECTURE.md, "Layers").
import ArgumentParser
import Configuration
import ControlAPI
import DaemonLog
import EventLoop
import FoundationEssentials
import Glibc
import QuaverVersion

/// The Quaver daemon: plays the queue and serves it over MPRIS on the session bus.
struct Quaverd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quaverd",
        abstract: "Quaver music daemon: an MPRIS player (\(ControlAPI.busName)) on the session bus.",
        version: quaverVersion)

    @Option(name: .customLong("output"),
            help: "GStreamer sink or sink pipeline to play into, e.g. \"pulsesink\" or \"fakesink sync=true\", or \"snapcast\" (to the server [snapcast] names); overrides [audio] output of the settings.")
    var output: String?

    @Option(name: .customLong("config"),
            help: "Settings file to read instead of $XDG_CONFIG_HOME/quaver/config.toml (which may be missing: then defaults).")
    var configPath: String?

    @Option(name: .customLong("bus-address"), help: "D-Bus address to serve on instead of the session bus.")
    var busAddress: String?

    @Flag(help: "Start playing the queue at once.")
    var play = false

    @Argument(help: "Files or URIs (file, http, https) to queue at start.")
    var items: [String] = []

    func run() throws {
        let settings: Configuration
        do {
            settings = try Configuration.load(givenPath: configPath)
        } catch {
            // A refused file stops the daemon: running on defaults would hide the user's typo.
            fputs("quaverd: \(error)\n", stderr)
            throw ExitCode(2)
        }
        DaemonLogHandler.bootstrap(level: settings.log.level.rawValue, label: "quaverd")
        let status = Daemon(options: self, settings: settings).run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// Runs the daemon on the process's arguments.
public func runQuaverd() {
    ProcessSetup.useOneMallocArena()
    ProcessSetup.makeCreatedFilesPrivate()
    Quaverd.main()
}
