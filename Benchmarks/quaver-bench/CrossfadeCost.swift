import ArgumentParser
import Foundation
import QuaverClient
import TestRigs

/// What crossfade and the equaliser cost the real quaverd, each against its floor from the same run:
///
///     private dbus-daemon ── quaverd ──▶ pulsesink ──▶ headless PulseAudio null sink
///                            gst-launch-1.0 playbin (one long FLAC, same sink, same seconds)
///
/// quaverd plays a queue of short FLAC tones, each tagged with an album of its own, so every joint is one
/// crossfade would overlap. Three rows: crossfade off, crossfade `overlap` seconds (the window starts when the
/// first overlap does and lasts whole track periods, so `overlap / (length − overlap)` of it is overlaps), and
/// crossfade off with an equaliser preset on.
struct CrossfadeCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crossfade-cost",
        abstract: "CPU per minute of quaverd playing FLAC with crossfade off, on (over overlaps) and with the equaliser.")

    @Option(help: "Crossfade seconds of the overlap row.")
    var overlap = 6.0
    @Option(help: "Seconds of each queued track (more than 2 × overlap + 3, so that each joint is armed in time).")
    var trackSeconds = 16
    @Option(help: "Track periods (length − overlap seconds each) measured per run.")
    var periods = 4
    @Option(help: "Playback runs per row (the median is reported).")
    var runs = 3
    @Option(help: "Equaliser preset of the equaliser row.")
    var preset = "bass"
    @Option(help: "Sink for both players (default: pulsesink, or fakesink sync=true without PulseAudio).")
    var sink: String?

    private var period: Double { Double(trackSeconds) - overlap }
    private var seconds: Double { period * Double(periods) }

    func run() throws {
        let rig = try BenchRig(prefix: "quaver-crossfade-cost", output: .sink(chosen: sink))
        defer { rig.stop() }
        let quaverd = try rig.quaverd()
        defer { quaverd.stop() }
        let queue = try albumTones(in: rig.scratch.url)
        let floorURI = URL(fileURLWithPath: try tone("flac", seconds: Int(seconds) + trackSeconds + 20, in: rig.scratch.url)).absoluteString
        let measure = { (crossfade: Double) in
            try measureRuns(quaverd, queue: queue, crossfade: crossfade, floorURI: floorURI, sink: rig.sink)
        }
        let off = try measure(0)
        emit("crossfade off", off)
        let on = try measure(overlap)
        let share = Int((overlap / period * 100).rounded())
        emit(String(format: "crossfade %.0f s, %d %% overlaps if every joint overlaps", overlap, share), on)
        try quaverd.client.setEqualizerPreset(preset)
        let equalised = try measure(0)
        try quaverd.client.setEqualizerPreset("off")
        emit("equaliser '\(preset)'", equalised)
    }

    /// `queued` FLAC tones of `trackSeconds`, each its own album (440 Hz and up, so the mix is audible as one).
    private func albumTones(in directory: URL, queued: Int = 12) throws -> [String] {
        try (1...queued).map { number in
            let path = directory.appendingPathComponent("album-\(number).flac").path
            let wav = directory.appendingPathComponent("album-\(number).wav").path
            try runTool("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "\(trackSeconds)",
                                         "sine", "\(400 + 40 * number)", "vol", "0.5"])
            try runTool("/usr/bin/flac", ["-s", "-f", "-o", path, wav])
            try runTool("/usr/bin/metaflac", ["--set-tag=ALBUM=Album \(number)", "--set-tag=ARTIST=Artist \(number)",
                                              "--set-tag=TITLE=Track \(number)", path])
            return URL(fileURLWithPath: path).absoluteString
        }
    }

    /// `runs` times: the queue from its start with `crossfade` set, and playbin beside it; the window opens
    /// when the second track starts (with crossfade, at the start of the first overlap). CPU s per minute, ours
    /// and the floor's (started first, past its own start-up when the window opens).
    private func measureRuns(_ quaverd: BenchQuaverd, queue: [String], crossfade: Double, floorURI: String,
                             sink: String) throws -> (ours: [Double], floor: [Double]) {
        try quaverd.client.setCrossfade(crossfade)
        var ours: [Double] = [], floor: [Double] = []
        for _ in 0..<runs {
            let playbin = try BenchProcess("/usr/bin/gst-launch-1.0", ["-q", "playbin", "uri=\(floorURI)", "audio-sink=\(sink)"])
            Thread.sleep(forTimeInterval: 1.5)  // past its start-up and preroll
            try quaverd.client.replaceQueue(queue, play: true)
            try waitForTrack(queue[1], quaverd.client, within: Double(trackSeconds) + 10)
            let counter = TrackCounter(quaverd.client)
            let perMinute = ProcessCounters.cpuPerMinute([quaverd.pid, playbin.pid], over: seconds)
            playbin.stop()
            print(String(format: "crossfade %.0f s: tracks started in the window: %d (expected %d)",
                         crossfade, counter.tracksStarted(), Int(seconds / (Double(trackSeconds) - crossfade))))
            ours.append(perMinute[0])
            floor.append(perMinute[1])
        }
        try quaverd.client.stop()
        print("CPU s/min, quaverd: \(list(ours)); gst-launch playbin: \(list(floor))")
        return (ours, floor)
    }

    /// Polls MPRIS until `url` is the current track, which crossfade makes it at the start of the overlap.
    private func waitForTrack(_ url: String, _ client: QuaverClient, within limit: Double) throws {
        let deadline = Date().addingTimeInterval(limit)
        while client.currentURL != url {
            guard Date() < deadline else { throw BenchError("\(url) did not start within \(limit) s") }
            usleep(10_000)
        }
    }

    private func emit(_ what: String, _ figures: (ours: [Double], floor: [Double])) {
        let ours = median(figures.ours), floor = median(figures.floor)
        BenchRow("CPU s per minute playing FLAC, \(what)", value: ours, floor: floor, format: "%.3f", target: "—",
                 ok: nil).emit()
    }

    private func list(_ values: [Double]) -> String {
        values.map { String(format: "%.3f", $0) }.joined(separator: " ")
    }
}

/// Counts the tracks started over a window, by the number in the current track's file name at its two ends.
private struct TrackCounter {
    private let client: QuaverClient
    private let first: Int

    init(_ client: QuaverClient) {
        self.client = client
        first = client.currentTrackNumber
    }

    /// Tracks started since the counter was made (the queue's tracks are numbered 1, 2, … in their file names).
    func tracksStarted() -> Int { client.currentTrackNumber - first }
}

private extension QuaverClient {
    var currentURL: String? { (try? metadata)?["xesam:url"]?.stringValue }

    /// The number in `album-N.flac` of the current track; 0 when none.
    var currentTrackNumber: Int {
        guard let name = currentURL.map({ URL(string: $0)?.deletingPathExtension().lastPathComponent ?? "" }) else { return 0 }
        return Int(name.split(separator: "-").last ?? "") ?? 0
    }
}
