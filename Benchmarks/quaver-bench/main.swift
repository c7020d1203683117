// quaver-bench: the measurements behind scripts/bench, run on demand, never part of the test suite.
// A program: it runs the real quaverd (through QuaverClient) and the engine, beside the programs the tests
// run too (TestRigs). It lives outside Sources/: it is no part of the product.
import ArgumentParser
import Foundation

/// Benchmarks that print numbers; run on demand (`make bench`), never part of the test suite.
struct QuaverBench: ParsableCommand {
    @Flag(help: "List the benchmarks that scripts/bench runs by default, one per line.")
    var listBenchmarks = false

    func run() throws {
        guard listBenchmarks else { throw CleanExit.helpRequest(self) }
        for command in Self.configuration.subcommands where command.configuration.shouldDisplay {
            print(command._commandName)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "quaver-bench",
        abstract: "Measure Quaver against its floors.",
        subcommands: [
            DBusRoundTrip.self,
            DBusBenchService.self,
            DaemonCost.self,
            CrossfadeCost.self,
            CrossfadeRecording.self,
            EnginePlayback.self,
            EnginePlaybackChild.self,
            MPRISLatency.self,
            MPRISHammer.self,
            NetworkPlayback.self,
            QueueScale.self,
            ReplayGainCost.self,
            SnapcastPlayback.self,
            QueueScaleProbe.self,
            TagReading.self,
            TagReadingProbe.self,
            LibraryScale.self,
            GnomeCard.self,
            BenchReport.self,
        ])
}

// Line-buffered even into a pipe, so scripts/bench shows each figure as it comes.
setvbuf(stdout, nil, _IOLBF, 0)
QuaverBench.main()
