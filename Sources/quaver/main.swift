// `quaver`: the command-line client. It only talks to quaverd over D-Bus (MPRIS where MPRIS has the
// method, org.quaver.Quaver1 for the rest); it never plays anything itself.
// A program: imports ControlAPI, DBus, EventLoop, Playlists, QuaverVersion, TerminalText, ArgumentParser.
Quaver.main()
