import ControlAPI

/// quaverd's command line, read by hand. The daemon has four options and no subcommands; ArgumentParser, which the
/// CLI keeps, ran through its code and metadata at every start to read them (0.6 MB of it was resident in the
/// daemon), and its own code now runs only in the CLI (docs/reliability.md, "Memory while playing").
struct DaemonOptions: Equatable {
    var output: String?
    var configPath: String?
    var busAddress: String?
    var play = false
    var items: [String] = []

    /// What the command line asks for.
    enum Request: Equatable {
        case run(DaemonOptions)
        case help
        case version
    }

    /// A command line quaverd cannot read; the daemon exits with status 64 (EX_USAGE), as ArgumentParser did.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Reads the arguments after the program's name. Options may come before, between or after the items
    /// (`--output=X` or `--output X`); everything after `--` is an item.
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--": options.items += rest; rest = []
            case "-h", "--help": return .help
            case "--version": return .version
            case "--play": options.play = true
            case _ where argument.hasPrefix("-") && argument != "-": try options.read(argument, from: &rest)
            default: options.items.append(argument)
            }
        }
        return .run(options)
    }

    /// Reads an option that takes a value, given as `--name=value` or as the next argument.
    private mutating func read(_ argument: String, from rest: inout ArraySlice<String>) throws(UsageError) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard let field = Self.valued[name] else { throw UsageError(description: "unknown option '\(name)'") }
        guard let value = parts.count == 2 ? String(parts[1]) : rest.popFirst() else {
            throw UsageError(description: "missing value for '\(name)'")
        }
        self[keyPath: field] = value
    }

    private static let valued: [String: WritableKeyPath<DaemonOptions, String?>] =
        ["--output": \.output, "--config": \.configPath, "--bus-address": \.busAddress]

    static let usage = "quaverd [--output <sink>] [--config <file>] [--bus-address <address>] [--play] [<item> ...]"

    static let help = """
        quaverd: the Quaver music daemon, an MPRIS player (\(ControlAPI.busName)) on the session bus.

        Usage: \(usage)

          <item>                   Files or URIs (file, http, https) to queue at start.
          --output <sink>          GStreamer sink or sink pipeline to play into, e.g. "pulsesink" or
                                   "fakesink sync=true", or "snapcast" (to the server [snapcast] names);
                                   overrides [audio] output of the settings.
          --config <file>          Settings file to read instead of $XDG_CONFIG_HOME/quaver/config.toml
                                   (which may be missing: then defaults).
          --bus-address <address>  D-Bus address to serve on instead of the session bus.
          --play                   Start playing the queue at once.
          --version                Show the version.
          -h, --help               Show this help.

        """
}
