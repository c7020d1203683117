import ArgumentParser
import Foundation
import QuaverClient
import TestRigs

/// A crossfade as a listener hears it, recorded twice from the same real quaverd build:
///
///     quaverd ──▶ pulsesink ──▶ headless PulseAudio null sink `a` ──▶ parec a.monitor
///     quaverd ──tcp──▶ snapserver ──▶ snapclient 1 ──▶ left  ┐ null sink `room` ──▶ parec room.monitor
///                                 └─▶ snapclient 2 ──▶ right ┘ (one room per channel)
///
/// Three tracks of different albums, a tone of `outgoingHz`, one of `incomingHz` (whole periods in each 5 ms
/// window at 48 kHz, so neither leaks into the other's filter), then a third tone: the first joint is measured, and
/// the sound heard in all must be the three lengths less two overlaps, with no silence in it (a stream after a
/// crossfaded one once started 6 s late). In each recording the overlap is the
/// longest run of windows where both tones are above `threshold` of their own peak; with an equal-power curve that
/// span is shorter than the setting by 4·asin(threshold)/π of it, printed beside it.
struct CrossfadeRecording: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crossfade-recording",
        abstract: "The overlap of a crossfade recorded from a PulseAudio null sink and from two Snapcast rooms.")

    @Option(help: "Crossfade seconds.")
    var overlap = 6.0
    @Option(help: "A tone counts as present above this share of its own peak amplitude.")
    var threshold = 0.001

    static let outgoingHz = 400.0, incomingHz = 1000.0, rate = 48_000, window = 240

    func run() throws {
        let rig = try BenchRig(prefix: "quaver-crossfade-recording", output: .pulseAudio)
        defer { rig.stop() }
        let tracks = try [(Self.outgoingHz, 14, "Outgoing"), (Self.incomingHz, 16, "Incoming"), (600, 10, "Third")].map { hz, seconds, album in
            try albumTone(hz: hz, seconds: seconds, album: album, in: rig.scratch.url)
        }
        print(String(format: "crossfade %.1f s; a span above %.3f of each peak reads %.3f s on a perfect equal-power curve",
                     overlap, threshold, overlap * (1 - 4 * asin(threshold) / .pi)))
        try recordNullSink(tracks, rig: rig)
        try recordSnapcast(tracks, rooms: try BenchRooms(on: rig))
    }

    private func recordNullSink(_ tracks: [String], rig: BenchRig) throws {
        let file = rig.folder("null-sink.raw").path
        let quaverd = try rig.quaverd(home: "home-pulse")
        defer { quaverd.stop() }
        let recorder = try SpawnedTool(["parec", "-d", "a.monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)",
                                        "--channels=2", "--latency-msec=20"], environment: try rig.pulseAudio().environment,
                                       output: file)
        try playThrough(tracks, quaverd)
        recorder.stop(signal: SIGINT)
        let recording = try StereoRecording(file: file)
        report("null sink", OverlapSpan(recording.left, threshold: threshold))
        reportSound("null sink", recording.left)
    }

    private func recordSnapcast(_ tracks: [String], rooms: BenchRooms) throws {
        let quaverd = try rooms.quaverd(home: "home-snapcast")
        defer { quaverd.stop() }
        let file = rooms.snapcast.directory.path + "/room.raw"
        let recorder = try rooms.record(into: file)
        // snapserver's 1000 ms buffer: the rooms hear the end that much after quaverd stops.
        try playThrough(tracks, quaverd, after: 2)
        recorder.stop(signal: SIGINT)
        let recording = try StereoRecording(file: file)
        let rooms = [OverlapSpan(recording.left, threshold: threshold), OverlapSpan(recording.right, threshold: threshold)]
        report("Snapcast room 1", rooms[0])
        report("Snapcast room 2", rooms[1])
        reportSound("Snapcast room 1", recording.left)
        reportSound("Snapcast room 2", recording.right)
        if let first = rooms[0].range, let second = rooms[1].range {
            print(String(format: "Snapcast: overlap start room 2 − room 1 %.1f ms, end %.1f ms",
                         Double(second.lowerBound - first.lowerBound) * 1000 / Double(Self.rate),
                         Double(second.upperBound - first.upperBound) * 1000 / Double(Self.rate)))
        }
    }

    /// Sets crossfade, plays `tracks` from the first, waits until the queue has played out and `after` more seconds.
    private func playThrough(_ tracks: [String], _ quaverd: BenchQuaverd, after: Double = 0.5) throws {
        try quaverd.client.setCrossfade(overlap)
        usleep(300_000)  // parec's start
        try quaverd.client.replaceQueue(tracks, play: true)
        let deadline = Date().addingTimeInterval(60)
        usleep(1_000_000)
        while try quaverd.client.playbackStatus == "Playing" {
            guard Date() < deadline else { throw BenchError("the tracks did not play out within 60 s") }
            usleep(50_000)
        }
        Thread.sleep(forTimeInterval: after)
    }

    private func report(_ place: String, _ span: OverlapSpan) {
        guard let seconds = span.seconds else { return print("\(place): no overlap heard") }
        let levels = span.curve().map { String(format: "%.0f%%: out %.3f (cos %.3f) in %.3f (sin %.3f)", $0.at * 100,
                                               $0.outgoing, cos($0.at * .pi / 2), $0.incoming, sin($0.at * .pi / 2)) }
        print(String(format: "%@: overlap %.3f s (setting %.1f s); levels ", place, seconds, overlap)
              + levels.joined(separator: "; "))
        BenchRow("crossfade \(String(format: "%.0f", overlap)) s overlap heard, s (\(place))", value: seconds, floor: nil,
                 format: "%.3f", target: "± 0.05", ok: abs(seconds - overlap * (1 - 4 * asin(threshold) / .pi)) < 0.05).emit()
    }

    /// Seconds of sound from its first sample to its last (14 + 16 + 10 − 2 × overlap expected), and the longest silence inside.
    private func reportSound(_ place: String, _ samples: [Int16]) {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > 100 }),
              let last = samples.lastIndex(where: { abs(Int($0)) > 100 }) else { return print("\(place): no sound") }
        let rate = Double(Self.rate), heard = Double(last - first) / rate
        let silence = Double(StereoRecording.longestQuietRun(in: samples, from: first, to: last, level: 100)) / rate
        print(String(format: "%@: sound for %.3f s (expected %.1f), longest silence inside %.3f s", place, heard, 40 - 2 * overlap, silence))
        BenchRow("3 tracks crossfaded, longest silence inside, s (\(place))", value: silence, floor: nil, format: "%.3f",
                 target: "< 0.01", ok: silence < 0.01).emit()
    }

    private func albumTone(hz: Double, seconds: Int, album: String, in directory: URL) throws -> String {
        let wav = directory.appendingPathComponent("\(album).wav").path, flac = directory.appendingPathComponent("\(album).flac").path
        try runTool("/usr/bin/sox", ["-q", "-n", "-r", "\(Self.rate)", "-c", "2", "-b", "16", wav, "synth", "\(seconds)",
                                     "sine", "\(hz)", "vol", "0.5"])
        try runTool("/usr/bin/flac", ["-s", "-f", "-T", "ALBUM=\(album)", "-T", "TITLE=\(album)", "-o", flac, wav])
        return URL(fileURLWithPath: flac).absoluteString
    }
}

/// Where both tones sound at once in one channel, by a Goertzel filter per 5 ms window.
struct OverlapSpan {
    private let outgoing: [Double], incoming: [Double]
    /// Sample indexes of the first and past the last window where both tones are above the threshold.
    let range: Range<Int>?

    init(_ samples: [Int16], threshold: Double) {
        let window = CrossfadeRecording.window
        let starts = Array(stride(from: 0, to: samples.count - window, by: window))
        let out = starts.map { Self.amplitude(samples, $0, window, CrossfadeRecording.outgoingHz) }
        let into = starts.map { Self.amplitude(samples, $0, window, CrossfadeRecording.incomingHz) }
        let (outPeak, inPeak) = (out.max() ?? 1, into.max() ?? 1)
        let (outgoing, incoming) = (out.map { $0 / outPeak }, into.map { $0 / inPeak })
        (self.outgoing, self.incoming) = (outgoing, incoming)
        let windows = Self.longestRun(starts.indices.map { outgoing[$0] > threshold && incoming[$0] > threshold })
        range = windows.map { (starts[$0.lowerBound])..<(starts[$0.upperBound - 1] + window) }
    }

    /// The longest run of `true`: a track's first and last window (a click where the sound starts or
    /// stops) shows every frequency, and is not the overlap.
    private static func longestRun(_ flags: [Bool]) -> Range<Int>? {
        var longest: Range<Int>?, start: Int?
        for (index, flag) in (flags + [false]).enumerated() {
            if flag, start == nil { start = index }
            guard !flag, let first = start else { continue }
            if index - first > longest?.count ?? 0 { longest = first..<index }
            start = nil
        }
        return longest
    }

    var seconds: Double? { range.map { Double($0.count) / Double(CrossfadeRecording.rate) } }

    /// Both tones' levels (of their peaks) at 5, 25, 50, 75 and 95 % of the span.
    func curve() -> [(at: Double, outgoing: Double, incoming: Double)] {
        guard let range else { return [] }
        return [0.05, 0.25, 0.5, 0.75, 0.95].map { share in
            let index = (range.lowerBound + Int(Double(range.count) * share)) / CrossfadeRecording.window
            return (share, outgoing[index], incoming[index])
        }
    }

    /// The amplitude of `hz` in `samples[start ..< start + count]` (Goertzel), in sample units.
    private static func amplitude(_ samples: [Int16], _ start: Int, _ count: Int, _ hz: Double) -> Double {
        let coefficient = 2 * cos(2 * .pi * hz / Double(CrossfadeRecording.rate))
        var previous = 0.0, beforePrevious = 0.0
        for index in start..<(start + count) {
            let current = Double(samples[index]) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * power.squareRoot() / Double(count)
    }
}
