import ArgumentParser
import Foundation
import Logging

/// The Quaver daemon: plays the queue and serves it over MPRIS on the session bus.
struct Quaverd: ParsableCommand {
    /// Published as org.quaver.Quaver1.Version.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "quaverd",
        abstract: "Quaver music daemon: an MPRIS player (org.mpris.MediaPlayer2.quaver) on the session bus.",
        version: version)

    @Option(name: .customLong("output"),
            help: "GStreamer sink or sink pipeline to play into, e.g. \"pulsesink\" or \"fakesink sync=true\".")
    var output = "pulsesink"

    @Option(name: .customLong("bus-address"), help: "D-Bus address to serve on instead of the session bus.")
    var busAddress: String?

    @Flag(help: "Start playing the queue at once.")
    var play = false

    @Argument(help: "Files or URIs (file, http, https) to queue at start.")
    var items: [String] = []

    func run() throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let status = Daemon(options: self).run()
        if status != 0 { throw ExitCode(status) }
    }
}

Quaverd.main()
