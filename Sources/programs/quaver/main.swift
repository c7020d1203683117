// quaver: the release's one program. quaverd and quaver-snapcast-plugin are links to it, and the name it is run
// as chooses which of the three it is: one copy of the Swift runtime on disk instead of three (BENCHMARKS.md,
// "One program"). Each part's code is its own module; this file only chooses.
import QuaverCLI
import quaverd
import SnapcastPlugin

switch CommandLine.arguments.first?.split(separator: "/").last {
case "quaverd": runQuaverd()
case "quaver-snapcast-plugin": try runSnapcastPlugin()
default: runQuaverCLI()
}
