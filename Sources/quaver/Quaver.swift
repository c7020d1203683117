import ArgumentParser
import QuaverClient
import QuaverVersion
import TerminalText

struct Quaver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quaver",
        abstract: "Control the Quaver music daemon (quaverd).",
        version: quaverVersion,
        subcommands: [Add.self, Play.self, QueueList.self, Remove.self, Move.self, Clear.self, Jump.self,
                      Next.self, Previous.self, Pause.self, Toggle.self, Stop.self, Seek.self,
                      Volume.self, Rate.self, Crossfade.self, Loop.self, Shuffle.self, Sleep.self, Output.self, Equalizer.self, Status.self,
                      Stats.self,
                      Search.self, Artists.self, Albums.self, LibraryStatus.self, Rescan.self,
                      Save.self, Load.self, PlaylistList.self, PlaylistEdit.self, Rating.self, History.self])
}

/// Options every command takes.
struct ClientOptions: ParsableArguments {
    @Option(help: "D-Bus address of the bus quaverd is on (default: the session bus).")
    var busAddress: String?

    func connect() throws -> QuaverClient { try QuaverClient(busAddress: busAddress) }
}

/// A failure explained to the user; ArgumentParser prints it to stderr and exits with status 1.
/// Made inert here, as it often quotes the daemon's error text, a file name or a URL.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = InertText.of(description, keepingNewlines: true) }
}
