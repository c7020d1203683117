// quaverd (the module): quaverd's entry point (options, logging, exit status); `Daemon` wires the modules together.
// The program's code, run by the release's one program (Sources/programs/quaver) when it is called `quaverd`.
// May import every module below the programs (docs/ARCHITECTURE.md, "Layers").
import Configuration
import DaemonLog
import EventLoop
import Glibc
import QuaverVersion

/// Runs the daemon on the process's arguments and exits with its status: 0, 2 for settings it refuses, 64 for a
/// command line it cannot read.
public func runQuaverd() -> Never {
    ProcessSetup.useOneMallocArena()
    ProcessSetup.makeCreatedFilesPrivate()
    do {
        switch try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) {
        case .help: print(DaemonOptions.help, terminator: "")
        case .version: print(quaverVersion)
        case .run(let options): exit(run(options))
        }
        exit(0)
    } catch {
        fputs("quaverd: \(error)\nUsage: \(DaemonOptions.usage)\n  See 'quaverd --help' for more information.\n", stderr)
        exit(64)
    }
}

private func run(_ options: DaemonOptions) -> Int32 {
    let settings: Configuration
    do {
        settings = try Configuration.load(givenPath: options.configPath)
    } catch {
        // A refused file stops the daemon: running on defaults would hide the user's typo.
        fputs("quaverd: \(error)\n", stderr)
        return 2
    }
    DaemonLogHandler.bootstrap(level: settings.log.level.rawValue, label: "quaverd")
    return Daemon(options: options, settings: settings).run()
}
