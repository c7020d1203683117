import ArgumentParser
import ControlAPI
import DBus
import Glibc
import QuaverClient

struct Output: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the sound outputs, or send the music to one.",
        discussion: "Without a subcommand, lists them: the one the music plays on is marked ▶.",
        subcommands: [List.self, Choose.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the sound outputs.")
        @OptionGroup var options: ClientOptions

        func run() throws {
            try Output.show(try options.connect())
        }
    }

    struct Choose: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Move the music to the output NAME (as listed) now and after restarts; `default` follows the default output.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "An output's name, or default.") var name: String

        func run() throws {
            let client = try options.connect()
            try client.setOutput(name == "default" ? "" : name)
            try Output.show(client)
        }
    }

    /// `▶ name  description` per sink, then what is chosen.
    static func show(_ client: QuaverClient) throws {
        let outputs = try listedOutputs(client)
        for output in outputs {
            guard let fields = output.arrayValue, fields.count == 4, let name = fields[0].stringValue else { continue }
            let ours = fields[2].boolValue == true, available = fields[3].boolValue != false
            Terminal.line("\(ours ? "▶" : " ") \(name)  \(fields[1].stringValue ?? "")\(available ? "" : "  (unplugged)")")
        }
        if outputs.isEmpty { Terminal.line("no sound server outputs seen") }
        let chosen = try client.chosenOutput()
        Terminal.line(chosen.isEmpty ? "following the default output" : "chosen: \(chosen)")
    }

    /// The outputs; an empty list is read again for up to a second: a daemon that has played nothing yet connects to
    /// the sound server when first asked, and lists its sinks a moment later.
    private static func listedOutputs(_ client: QuaverClient) throws -> [DBusValue] {
        var outputs = try client.outputs()
        for _ in 0..<20 where outputs.isEmpty {
            usleep(50_000)
            outputs = try client.outputs()
        }
        return outputs
    }
}
