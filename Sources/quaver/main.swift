// `quaver`: the command-line client. It only talks to quaverd over D-Bus (MPRIS where MPRIS has the
// method, org.quaver.Quaver1 for the rest); it never plays anything itself.
// A program: imports ControlAPI, DBus, EventLoop, Playlists, QuaverClient, QuaverVersion, TerminalText, ArgumentParser.
import QuaverClient

// Quaver.main(), with quaverd's failures made inert as every CLIError is (they quote its error text).
do {
    var command = try Quaver.parseAsRoot()
    try command.run()
} catch let failure as QuaverClientError {
    Quaver.exit(withError: CLIError(failure.description))
} catch {
    Quaver.exit(withError: error)
}
