import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient
import StateStore
import TestRigs

/// What the real quaverd costs the machine, each against its floor from the same run:
///
///     private dbus-daemon ── quaverd ──▶ pulsesink ──▶ headless PulseAudio null sink
///                                        gst-launch-1.0 playbin (same file, same sink, same seconds)
///
/// CPU per minute of playback (FLAC, Vorbis, MP3), while paused, while stopped with a long queue; RSS at
/// rest and peak RSS while playing (one FLAC, then all three); spawn → MPRIS name owned and → first answer; gapless joints recorded
/// through wavenc. Without PulseAudio both
/// players play into `fakesink sync=true`.
struct DaemonCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon-cost",
        abstract: "CPU, memory, start time and gapless joints of the real quaverd against bare playbin.")

    @Option(help: "Seconds measured per playback run.")
    var seconds = 20.0
    @Option(help: "Playback runs per format (the median is reported).")
    var runs = 3
    @Option(help: "Seconds measured while paused and while stopped.")
    var idleSeconds = 30.0
    @Option(help: "Tracks queued for the stopped measurement.")
    var queued = 20_000
    @Option(help: "Seconds the daemon sits idle before its memory at rest is read.")
    var restSeconds = 3.0
    @Option(help: "Daemon starts timed.")
    var spawns = 9
    @Option(help: "Sink for both players (default: pulsesink, or fakesink sync=true without PulseAudio).")
    var sink: String?

    func run() throws {
        let rig = try BenchRig(prefix: "quaver-daemon-cost", output: .sink(chosen: sink))
        defer { rig.stop() }
        let (bus, scratch) = (rig.bus, rig.scratch)
        try measureSpawn(bus, home: rig.folder("home"))
        try measureSpawnWithSavedQueue(bus, in: scratch.url)
        let quaverd = try rig.quaverd()
        defer { quaverd.stop() }
        try measureRest(quaverd)
        try measurePlayback(quaverd, sink: rig.sink, in: scratch.url)
        try measurePaused(quaverd, scratch.url)
        try measureStoppedWithQueue(quaverd, scratch.url)
        quaverd.stop()  // the gapless runs take the MPRIS name
        let sweep = try Sweep(in: scratch.url)
        // A home of its own per run: quaverd restores the saved queue, which would play before the halves.
        for format in ["wav", "flac"] {
            let fresh = scratch.url.appendingPathComponent("home-gapless-\(format)")
            try measureGapless(format, sweep, bus: bus, home: fresh, in: scratch.url)
        }
    }

    /// Start-up with nothing saved: until the name is owned, and until the first call is answered.
    private func measureSpawn(_ bus: BenchBus, home: URL) throws {
        var owned: [Double] = [], answered: [Double] = []
        for _ in 0..<spawns {
            let quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: home)
            _ = try quaverd.client.playbackStatus
            answered.append(Double(EventLoop.monotonicMicroseconds - quaverd.spawnedAt) / 1000)
            owned.append(Double(quaverd.startMicroseconds) / 1000)
            quaverd.stop()
        }
        print("spawn → name owned, ms: \(list(owned, "%.1f")); spawn → first answer (empty state), ms: \(list(answered, "%.1f"))")
        BenchRow("spawn → bus name owned, ms (warm registry)", value: median(owned), floor: nil, format: "%.1f",
                 target: "< 50", ok: median(owned) < 50).emit()
        BenchRow("spawn → first answer, ms (empty state)", value: median(answered), floor: nil, format: "%.1f",
                 target: "—", ok: nil).emit()
    }

    /// Resident memory of a daemon that answered one call and then sat for `restSeconds`, nothing loaded.
    private func measureRest(_ quaverd: BenchQuaverd) throws {
        _ = try quaverd.client.playbackStatus
        Thread.sleep(forTimeInterval: restSeconds)
        let rest = Double(ProcessCounters.residentKiB(quaverd.pid)) / 1024
        print(String(format: "at rest: VmRSS %.1f MB, VmHWM %.1f MB", rest, Double(ProcessCounters.peakRSSKiB(quaverd.pid)) / 1024))
        BenchRow("RSS at rest (idle, nothing loaded), MB", value: rest, floor: nil, format: "%.1f", target: "< 15", ok: rest < 15).emit()
    }

    /// Start-up with a state file holding `queued` tracks, each with the tags a scan would have saved:
    /// until the name is owned, until the first answer, and until the whole queue is back.
    private func measureSpawnWithSavedQueue(_ bus: BenchBus, in directory: URL) throws {
        let home = directory.appendingPathComponent("home-saved-queue")
        let state = try savedQueueState(in: directory)
        let file = StateFile(url: home.appendingPathComponent("state/quaver/state.json"))
        try file.save(state)
        let size = (try? FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as? Int) ?? 0
        var owned: [Double] = [], answered: [Double] = [], restored: [Double] = []
        for _ in 0..<spawns {
            let quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: home)
            // A long saved queue arrives after the first answer (docs/settings-and-state.md): poll until it is all there.
            var length = try queueLength(quaverd)
            answered.append(Double(EventLoop.monotonicMicroseconds - quaverd.spawnedAt) / 1000)
            while length != Int64(queued), EventLoop.monotonicMicroseconds - quaverd.spawnedAt < 20_000_000 {
                usleep(2000)
                length = try queueLength(quaverd)
            }
            restored.append(Double(EventLoop.monotonicMicroseconds - quaverd.spawnedAt) / 1000)
            owned.append(Double(quaverd.startMicroseconds) / 1000)
            quaverd.stop()
            guard length == Int64(queued) else { throw BenchError("quaverd restored \(length) of \(queued) tracks") }
        }
        print("state file of \(queued) tracks, \(size / 1024) KiB; spawn → name owned, ms: \(list(owned, "%.1f")); "
            + "spawn → first answer, ms: \(list(answered, "%.1f")); spawn → QueueLength \(queued), ms: \(list(restored, "%.1f"))")
        BenchRow("spawn → bus name owned, ms (\(queued)-track state file)", value: median(owned), floor: nil,
                 format: "%.1f", target: "< 50", ok: median(owned) < 50).emit()
        BenchRow("spawn → first answer, ms (\(queued)-track state file)", value: median(answered), floor: nil,
                 format: "%.1f", target: "< 50", ok: median(answered) < 50).emit()
        BenchRow("spawn → whole queue restored, ms (\(queued)-track state file)", value: median(restored), floor: nil,
                 format: "%.1f", target: "—", ok: nil).emit()
    }

    private func queueLength(_ quaverd: BenchQuaverd) throws -> Int64 {
        try quaverd.client.queueLength()
    }

    /// `queued` entries of one real file (the restored current track is loaded), tagged as a scan saves them.
    private func savedQueueState(in directory: URL) throws -> SavedState {
        let uri = URL(fileURLWithPath: try tone("flac", seconds: 10, in: directory)).absoluteString
        let queue = (1...queued).map { number in
            SavedTrack(uri: uri, metadata: SavedMetadata(
                title: "Track \(number)", artists: ["Artist \(number % 300)"], album: "Album \(number / 12)",
                trackNumber: number % 12 + 1, lengthMicroseconds: 10_000_000))
        }
        return SavedState(queue: queue, currentIndex: 0)
    }

    /// quaverd and gst-launch play the same file into the same sink at the same time, `runs` times per
    /// format. Peak RSS is read twice: after the FLAC runs (one local file, issue 31's target, against the
    /// playbins that played it) and after all three formats (three decoders loaded in quaverd, against the
    /// largest single playbin).
    private func measurePlayback(_ quaverd: BenchQuaverd, sink: String, in directory: URL) throws {
        var floorRSS = 0
        for format in ["flac", "ogg", "mp3"] {
            let uri = URL(fileURLWithPath: try tone(format, seconds: Int(seconds) + 10, in: directory)).absoluteString
            var ours: [Double] = [], floor: [Double] = []
            for _ in 0..<runs {
                try quaverd.client.openURI(uri)
                let playbin = try BenchProcess("/usr/bin/gst-launch-1.0", ["-q", "playbin", "uri=\(uri)", "audio-sink=\(sink)"])
                Thread.sleep(forTimeInterval: 1.5)  // both past start-up and preroll
                let perMinute = ProcessCounters.cpuPerMinute([quaverd.pid, playbin.pid], over: seconds)
                floorRSS = max(floorRSS, ProcessCounters.peakRSSKiB(playbin.pid))
                playbin.stop()
                ours.append(perMinute[0])
                floor.append(perMinute[1])
            }
            print("\(format) CPU s/min, quaverd: \(list(ours)); gst-launch playbin: \(list(floor))")
            BenchRow("CPU s per minute playing \(format == "ogg" ? "Vorbis" : format.uppercased())",
                     value: median(ours), floor: median(floor), format: "%.3f", target: "≤ floor (0.3 = 0.5 %)",
                     ok: (median(ours) * 1000).rounded() <= (median(floor) * 1000).rounded()).emit()  // as printed
            if format == "flac" { emitPeakRSS("playing one FLAC", quaverd, floorKiB: floorRSS, target: 25) }
        }
        try quaverd.client.stop()
        emitPeakRSS("after FLAC, Vorbis and MP3 in turn", quaverd, floorKiB: floorRSS, target: nil)
    }

    private func emitPeakRSS(_ what: String, _ quaverd: BenchQuaverd, floorKiB: Int, target: Double?) {
        let peak = Double(ProcessCounters.peakRSSKiB(quaverd.pid)) / 1024
        BenchRow("peak RSS \(what), empty queue, MB (VmHWM)", value: peak, floor: Double(floorKiB) / 1024,
                 format: "%.1f", target: target.map { "< \(Int($0))" } ?? "—", ok: target.map { peak < $0 }).emit()
    }

    private func measurePaused(_ quaverd: BenchQuaverd, _ directory: URL) throws {
        try quaverd.client.play()
        Thread.sleep(forTimeInterval: 1)
        try quaverd.client.pause()
        // Once paused a second, the history folds what it journaled while playing (`HistoryRecorder.stillSeconds`):
        // work the pause asked for, not idling, so the measure starts after it.
        Thread.sleep(forTimeInterval: 3)
        let perMinute = ProcessCounters.cpuPerMinute([quaverd.pid], over: idleSeconds)[0]
        BenchRow("CPU s per minute paused", value: perMinute, floor: 0, format: "%.3f", target: "< 0.05",
                 ok: perMinute < 0.05).emit()
    }

    /// The queue holds `queued` hard links to one tone file, replaced in one ReplaceQueue call.
    private func measureStoppedWithQueue(_ quaverd: BenchQuaverd, _ directory: URL) throws {
        let source = try tone("flac", seconds: 10, in: directory)
        let folder = directory.appendingPathComponent("queue")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let uris = try (1...queued).map { number in
            let link = folder.appendingPathComponent(String(format: "track-%05d.flac", number))
            guard Glibc.link(source, link.path) == 0 else { throw BenchError("cannot link \(link.path)") }
            return link.absoluteString
        }
        try quaverd.client.replaceQueue(uris, play: false)
        try quaverd.client.stop()
        // The daemon first reads the new tracks' tags in the background (~500 files/s): that is work, not
        // idling, so wait until it has finished (2 s windows using < 0.5 s per minute) before measuring.
        let readStart = Date()
        for _ in 0..<60 {
            if ProcessCounters.cpuPerMinute([quaverd.pid], over: 2)[0] < 0.5 { break }
        }
        print(String(format: "background tag reading of %d tracks: about %.0f s", queued, Date().timeIntervalSince(readStart)))
        let perMinute = ProcessCounters.cpuPerMinute([quaverd.pid], over: idleSeconds)[0]
        BenchRow("CPU s per minute stopped, \(queued) queued", value: perMinute, floor: 0, format: "%.3f",
                 target: "< 0.05", ok: perMinute < 0.05).emit()
        let rss = Double(ProcessCounters.peakRSSKiB(quaverd.pid)) / 1024
        BenchRow("peak RSS with \(queued) queued, MB", value: rss, floor: nil, format: "%.1f", target: "—", ok: nil).emit()
        // Playing through the long queue: the state file must not be written whole every second.
        try quaverd.client.play()
        Thread.sleep(forTimeInterval: 1.5)
        let playing = ProcessCounters.cpuPerMinute([quaverd.pid], over: seconds)[0]
        BenchRow("CPU s per minute playing FLAC, \(queued) queued", value: playing, floor: nil, format: "%.3f",
                 target: "—", ok: nil).emit()
        try quaverd.client.stop()
    }

    /// quaverd plays the two halves of the sweep into wavenc; the recording must equal the sweep.
    private func measureGapless(_ format: String, _ sweep: Sweep, bus: BenchBus, home: URL, in directory: URL) throws {
        let recording = directory.appendingPathComponent("gapless-\(format).wav")
        let output = "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=\(recording.path)"
        let original = try wavSamples(sweep.whole)
        let halves = sweep.halves(format)
        let quaverd = try BenchQuaverd(on: bus, output: output, home: home, arguments: ["--play", halves.0, halves.1])
        let deadline = Date().addingTimeInterval(30)
        while (try? wavSamples(recording))?.count ?? 0 < original.count, Date() < deadline { usleep(50_000) }
        Thread.sleep(forTimeInterval: 0.3)
        quaverd.stop()
        let recorded = try wavSamples(recording)
        let joint = Fixtures.firstHalfFrames * Fixtures.channels
        let window = max(0, joint - 4096)..<min(original.count, joint + 4096)
        func differing(_ range: Range<Int>) -> Int {
            range.filter { $0 >= recorded.count || recorded[$0] != original[$0] }.count
        }
        let atJoint = differing(window)
        let elsewhere = differing(0..<original.count) - atJoint + max(0, recorded.count - original.count)
        print("gapless \(format): \(recorded.count) samples recorded of \(original.count); \(atJoint) differ within "
            + "±2048 frames of the joint, \(elsewhere) elsewhere")
        BenchRow("gapless joint error \(format.uppercased()), samples", value: Double(atJoint), floor: 0, format: "%.0f",
                 target: "0", ok: atJoint == 0).emit()
        BenchRow("gapless dropouts elsewhere \(format.uppercased()), samples", value: Double(elsewhere), floor: 0, format: "%.0f",
                 target: "0", ok: elsewhere == 0).emit()
    }

    private func list(_ values: [Double], _ format: String = "%.3f") -> String {
        values.map { String(format: format, $0) }.joined(separator: " ")
    }
}

/// A 440 Hz stereo tone of `seconds` as `format` (flac, ogg, mp3 with a LAME header), made with sox and the
/// format's encoder in `directory`; returns its path.
func tone(_ format: String, seconds: Int, in directory: URL) throws -> String {
    let wav = directory.appendingPathComponent("tone-\(seconds).wav").path
    let target = directory.appendingPathComponent("tone-\(seconds).\(format)").path
    if FileManager.default.fileExists(atPath: target) { return target }
    if !FileManager.default.fileExists(atPath: wav) {
        try runTool("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "\(seconds)", "sine", "440",
                                     "vol", "0.5"])
    }
    switch format {
    case "flac": try runTool("/usr/bin/flac", ["-s", "-f", "-o", target, wav])
    case "ogg": try runTool("/usr/bin/oggenc", ["-Q", "-o", target, wav])
    case "mp3": try runTool("/usr/bin/lame", ["--silent", "-b", "192", wav, target])
    default: throw BenchError("no encoder for \(format)")
    }
    return target
}

/// The fixtures' gapless sweep (TestRigs' `Fixtures`, whose generator cannot run here: Foundation's
/// Process never sees its tools exit while pulseaudio is our child), split at the same odd frame.
private struct Sweep {
    let whole: URL
    private let directory: URL

    init(in directory: URL) throws {
        self.directory = directory
        whole = directory.appendingPathComponent("sweep.wav")
        let format = ["-r", "\(Fixtures.sampleRate)", "-c", "\(Fixtures.channels)", "-b", "16"]
        try runTool("/usr/bin/sox", ["-q", "-n"] + format + [whole.path, "synth", "4", "sine", "200-3000", "vol", "0.6"])
        let (first, second) = halves("wav")
        try runTool("/usr/bin/sox", ["-q", whole.path, first, "trim", "0s", "\(Fixtures.firstHalfFrames)s"])
        try runTool("/usr/bin/sox", ["-q", whole.path, second, "trim", "\(Fixtures.firstHalfFrames)s"])
        for (source, target) in [(first, halves("flac").0), (second, halves("flac").1)] {
            try runTool("/usr/bin/flac", ["-s", "-f", "-o", target, source])
        }
    }

    func halves(_ format: String) -> (String, String) {
        (directory.appendingPathComponent("sweep-1.\(format)").path, directory.appendingPathComponent("sweep-2.\(format)").path)
    }
}
