import ArgumentParser
import DBus
import Foundation
import QuaverClient
import TestRigs

/// What ReplayGain costs while playing: two quaverd, one with `replaygain = "off"` (the floor) and one with
/// "auto" (rgvolume in the filter, the album-run check in the core), each on its own bus, play the same
/// FLAC tagged −6 dB into the same sink at the same time, so both see the same machine.
struct ReplayGainCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replaygain-cost",
        abstract: "CPU of quaverd playing with ReplayGain (auto, a −6 dB tag) against the same daemon with it off.")

    /// A minute: the difference looked for is a few milliseconds of CPU a minute, as large as the spread of
    /// shorter windows.
    @Option(help: "Seconds measured per run.")
    var seconds = 60.0
    @Option(help: "Runs (the median is reported).")
    var runs = 3
    @Option(help: "Sink for both daemons (default: pulsesink, or fakesink sync=true without PulseAudio).")
    var sink: String?

    func run() throws {
        let rig = try BenchRig(prefix: "quaver-replaygain-cost", output: .sink(chosen: sink))
        defer { rig.stop() }
        let file = try taggedTone(in: rig.scratch.url)
        let secondBus = try BenchBus()  // one quaverd a bus: each owns the MPRIS name
        defer { secondBus.stop() }
        let daemons = try zip(["off", "auto"], [rig.bus, secondBus]).map { mode, bus in
            try rig.quaverd(home: "home-\(mode)", config: "[playback]\nreplaygain = \"\(mode)\"\nresume-on-start = false\n", on: bus)
        }
        defer { daemons.forEach { $0.stop() } }
        var off: [Double] = [], on: [Double] = []
        for _ in 0..<runs {
            for daemon in daemons { try daemon.client.openURI(URL(fileURLWithPath: file).absoluteString) }
            Thread.sleep(forTimeInterval: 1.5)  // both past start-up and preroll
            let perMinute = ProcessCounters.cpuPerMinute(daemons.map(\.pid), over: seconds)
            off.append(perMinute[0])
            on.append(perMinute[1])
            for daemon in daemons { try daemon.client.stop() }
        }
        let format = { (values: [Double]) in values.map { String(format: "%.3f", $0) }.joined(separator: " ") }
        print("FLAC CPU s/min, replaygain off: \(format(off)); auto: \(format(on))")
        BenchRow("CPU s per minute playing FLAC, ReplayGain auto (floor: off)", value: median(on), floor: median(off),
                 format: "%.3f", target: "—", ok: nil).emit()
    }

    /// A tone longer than a run, tagged track −6 dB / album −10 dB with peaks 0.5.
    private func taggedTone(in directory: URL) throws -> String {
        let source = try tone("flac", seconds: Int(seconds) + 10, in: directory)
        let tagged = directory.appendingPathComponent("tagged.flac").path
        try FileManager.default.copyItem(atPath: source, toPath: tagged)
        try runTool("/usr/bin/metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.5",
                                          "--set-tag=REPLAYGAIN_ALBUM_GAIN=-10.00 dB", "--set-tag=REPLAYGAIN_ALBUM_PEAK=0.5",
                                          tagged])
        return tagged
    }
}
