import ArgumentParser

/// Benchmarks that print numbers; run on demand (`make bench`), never part of the test suite.
struct QuaverBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quaver-bench",
        abstract: "Measure Quaver against its floors.",
        subcommands: [DBusRoundTrip.self, DBusBenchService.self, EnginePlayback.self, EnginePlaybackChild.self])
}

QuaverBench.main()
