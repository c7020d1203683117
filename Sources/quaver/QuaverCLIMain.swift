// QuaverCLI: `quaver`, the command-line client. It only talks to quaverd over D-Bus (MPRIS where MPRIS has the
// method, org.quaver.Quaver1 for the rest); it never plays anything itself. The program's code, run by the
// release's one program (Sources/programs/quaver) when it is called `quaver`.
// Imports ControlAPI, DBus, EventLoop, Playlists, QuaverVersion, TerminalText, ArgumentParser.

/// Runs the CLI on the process's arguments.
public func runQuaverCLI() {
    Quaver.main()
}
