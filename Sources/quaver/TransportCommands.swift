import ArgumentParser
import QuaverClient

/// A command that is one MPRIS Player method without arguments.
protocol PlayerMethodCommand: ParsableCommand {
    static var method: (QuaverClient) -> () throws -> Void { get }
    var options: ClientOptions { get }
}

extension PlayerMethodCommand {
    func run() throws { try Self.method(options.connect())() }
}

struct Next: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Go to the next track.")
    static let method = QuaverClient.next
    @OptionGroup var options: ClientOptions
}

struct Previous: PlayerMethodCommand {
    static let configuration = CommandConfiguration(
        commandName: "prev", abstract: "Go to the previous track (or restart this one after 3 s).")
    static let method = QuaverClient.previous
    @OptionGroup var options: ClientOptions
}

struct Pause: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Pause.")
    static let method = QuaverClient.pause
    @OptionGroup var options: ClientOptions
}

struct Toggle: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Pause when playing, otherwise play.")
    static let method = QuaverClient.playPause
    @OptionGroup var options: ClientOptions
}

struct Stop: PlayerMethodCommand {
    static let configuration = CommandConfiguration(abstract: "Stop; play starts the track from its beginning.")
    static let method = QuaverClient.stop
    @OptionGroup var options: ClientOptions
}

struct Seek: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Seek to a time: seconds (`90`), `m:ss`, `h:mm:ss`, or relative `+N` / `-N` (also `+m:ss`).")

    @OptionGroup var options: ClientOptions
    /// Collected as unrecognized arguments, so that `-10` is read as a time and not as an option.
    @Argument(parsing: .allUnrecognized, help: "Where to go.") var targets: [String]

    func validate() throws {
        guard targets.count == 1 else { throw ValidationError("give one time, e.g. 90, 1:30, +10 or -10") }
    }

    func run() throws {
        let target = targets[0]
        guard let parsed = TimeText.parseSeek(target) else {
            throw ValidationError("cannot read \"\(target)\" as a time: use 90, 1:30, +10 or -10")
        }
        let client = try options.connect()
        switch parsed {
        case .relative(let offset):
            try client.seek(by: offset)
        case .absolute(let position):
            // SetPosition names the track, so a track change in between cannot move the wrong one.
            let current = TrackInfo(try client.metadata)
            guard let track = current.trackID else { throw CLIError("there is no current track") }
            if let length = current.length, position > length {
                throw CLIError("\(target) is past the end of the track (\(TimeText.format(microseconds: length)))")
            }
            try client.setPosition(track: track, to: position)
        }
    }
}
