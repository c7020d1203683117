// QuaverCLI: `quaver`, the command-line client. It only talks to quaverd over D-Bus (MPRIS where MPRIS has the
// method, org.quaver.Quaver1 for the rest); it never plays anything itself. The program's code, run by the
// release's one program (Sources/programs/quaver) when it is called `quaver`.
// Imports ControlAPI, DBus, EventLoop, Playlists, QuaverClient, QuaverVersion, TerminalText, ArgumentParser.
import QuaverClient

/// Runs the CLI on the process's arguments: Quaver.main(), with quaverd's failures made inert as every CLIError
/// is (they quote its error text).
public func runQuaverCLI() {
    do {
        var command = try Quaver.parseAsRoot()
        try command.run()
    } catch let failure as QuaverClientError {
        Quaver.exit(withError: CLIError(failure.description))
    } catch {
        Quaver.exit(withError: error)
    }
}
