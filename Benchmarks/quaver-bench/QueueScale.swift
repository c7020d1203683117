import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient
import TestRigs

/// A large queue on the real quaverd (private bus, private HOME, `fakesink sync=true`), once per size in
/// the same run so the growth shows: one AddTracks of N local files while a probe process polls
/// Get(PlaybackStatus) every 5 ms, then the state save and the background tag reading, a Get(Tracks), a ReplaceQueue of
/// the same N and a RemoveTracks of 1 000; the daemon's memory per entry, the state file, SIGTERM, and a
/// restart with that state (spawn → name owned, → first answer, → whole queue back).
struct QueueScale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue-scale",
        abstract: "Queue 20 000 and 100 000 tracks on the real quaverd: stalls, memory per entry, state, restart.")

    @Option(help: "A decodable audio file; the queued tracks are symbolic links to it.")
    var file = "demo/01 Morning Arpeggio.flac"
    @Option(parsing: .upToNextOption, help: "Queue sizes, each measured on a fresh daemon.")
    var sizes = [20_000, 100_000]
    @Option(help: "Seconds to watch the state save and background tag reading after queueing.")
    var settleSeconds = 5.0
    @Option(help: "Files in the folder `quaver add` queues (hard links of one Ogg), on a fresh daemon; 0: none.")
    var folderSize = 20_000

    func run() throws {
        let source = URL(fileURLWithPath: file).standardizedFileURL
        let bus = try BenchBus()
        defer { bus.stop() }
        let growth = try sizes.map { size in
            (size, try QueueScaleRun(size: size, source: source, bus: bus, settleSeconds: settleSeconds).measure())
        }
        // What one more entry costs, without what any queue costs once (the tag reader's and the decoders'
        // libraries, the heap they leave): the slope between the smallest and the largest size.
        if let small = growth.first, let large = growth.last, large.0 > small.0 {
            let slope = Double(large.1 - small.1) * 1024 / Double(large.0 - small.0)
            let range = [small.0, large.0].map { $0.formatted(.number.grouping(.automatic)).replacingOccurrences(of: ",", with: " ") }
            BenchRow("bytes per entry added between \(range[0]) and \(range[1]) queued", value: slope, floor: nil,
                     format: "%.0f", target: "—", ok: nil).emit()
        }
        if folderSize > 0 { try FolderAdd(size: folderSize, bus: bus, settleSeconds: settleSeconds).measure() }
    }
}

/// One size: every figure of the queue-scale table for a queue of `size` tracks.
private struct QueueScaleRun {
    let size: Int
    let source: URL
    let bus: BenchBus
    let settleSeconds: Double

    /// Returns the KiB the queue added to the daemon's RSS at rest.
    func measure() throws -> Int {
        let work = try Workspace(tracks: size, linking: source)
        defer { work.remove() }
        var quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: work.home)
        defer { quaverd.stop() }
        _ = try quaverd.client.playbackStatus
        let rssEmpty = ProcessCounters.residentKiB(quaverd.pid)
        let binary = BenchProcess.ownProgram
        let probe = try BenchProcess(binary, ["queue-scale-probe", "--address", bus.address, "--stop-file", work.stopFile,
                                              "--samples-file", work.samplesFile])
        _ = try probe.firstLine()  // polling has begun

        // The loop's CPU time for the call: its wall time follows the machine's load (slices wait behind every
        // call and the tag reader's results, on shared cores), this does much less.
        let cpuBefore = ProcessCounters.mainThreadCPUSeconds(quaverd.pid)
        let added = try window { _ = try quaverd.client.addTracks(work.uris, at: "end", play: false) }
        let addedCPU = ProcessCounters.mainThreadCPUSeconds(quaverd.pid) - cpuBefore
        let settled = try window { usleep(UInt32(settleSeconds * 1_000_000)) }
        // While a library's tags are being read the queue changes under each save, whose snapshot is then a
        // copy of it: RSS goes up and down by that much every few seconds. The lowest of 12 samples is the
        // queue's own cost; the highest, the cost while a save runs.
        let (rssFull, rssSaving) = residentKiBOverThreeSeconds(quaverd.pid)
        var paths: [ObjectPath] = []
        let tracksWindow = try window { paths = try trackPaths(quaverd) }
        guard paths.count == size else { throw BenchError("quaverd queued \(paths.count) of \(size) tracks") }
        pause()
        let metadataWindow = try window { _ = try metadata(Array(paths.suffix(1000)), quaverd) }
        pause()
        let replaced = try window { _ = try quaverd.client.replaceQueue(work.uris.reversed(), play: false) }
        pause()
        let newPaths = try trackPaths(quaverd)
        pause()
        let middle = newPaths.count / 2
        let removedCount = min(1000, middle)
        let removed = try window { _ = try quaverd.client.removeTracks(Array(newPaths[middle..<middle + removedCount])) }
        let afterEdits = try window { usleep(2_000_000) }  // the save of the edited queue
        _ = FileManager.default.createFile(atPath: work.stopFile, contents: nil)
        _ = try probe.firstLine()
        let samples = try work.probeSamples()

        let stopStart = EventLoop.monotonicMicroseconds
        quaverd.stop()
        let stopMilliseconds = Double(EventLoop.monotonicMicroseconds - stopStart) / 1000
        let stateKiB = work.stateFileSize() / 1024
        let restart = try Restart(bus: bus, home: work.home, expected: size - removedCount)
        quaverd = restart.quaverd

        let n = size.formatted(.number.grouping(.automatic)).replacingOccurrences(of: ",", with: " ")
        func longest(_ span: (Int64, Int64)) -> Double { samples.longestWait(in: span) }
        let bytesPerEntry = Double(rssFull - rssEmpty) * 1024 / Double(size)
        print(String(format: "%@ tracks: AddTracks %.2f s (the loop's CPU %.2f s); empty %d kB, queued %d kB (%.0f bytes/entry); state.json %d kB; "
                     + "SIGTERM → exit %.0f ms; %d poller answers", n, added.seconds, addedCPU, rssEmpty, rssFull, bytesPerEntry,
                     stateKiB, stopMilliseconds, samples.count))
        print(String(format: "%@ tracks: longest poller wait, ms: AddTracks %.1f, save + tag reading %.1f, Get(Tracks) %.1f, "
                     + "GetTracksMetadata(1000) %.1f, ReplaceQueue %.1f, RemoveTracks(1000) %.1f, save after edits %.1f",
                     n, longest(added.span), longest(settled.span), longest(tracksWindow.span), longest(metadataWindow.span),
                     longest(replaced.span), longest(removed.span), longest(afterEdits.span)))
        print(String(format: "%@ tracks: restart: name owned %.1f ms, first answer %.1f ms (QueueLength %d), "
                     + "whole queue %.1f ms, longest wait meanwhile %.1f ms; RSS once restored %d kB, at rest %d kB",
                     n, restart.ownedMilliseconds, restart.firstAnswerMilliseconds, restart.firstLength,
                     restart.restoredMilliseconds, restart.longestWaitMilliseconds, restart.rssKiB, restart.rssAtRestKiB))
        let stallTarget = "< 50"
        BenchRow("AddTracks of \(n) URIs, s", value: added.seconds, floor: nil, format: "%.2f", target: "≤ 0.94 (100 000)", ok: nil).emit()
        BenchRow("AddTracks of \(n) URIs, the loop's CPU s", value: addedCPU, floor: nil, format: "%.2f", target: "—", ok: nil).emit()
        for (what, span) in [("AddTracks", added.span), ("state save + tag reading", settled.span),
                             ("Get(TrackList.Tracks)", tracksWindow.span), ("ReplaceQueue", replaced.span),
                             ("RemoveTracks of 1 000", removed.span)] {
            let wait = longest(span)
            BenchRow("\(n) queued: longest poller wait during \(what), ms", value: wait, floor: nil, format: "%.1f",
                     target: stallTarget, ok: wait < 50).emit()
        }
        BenchRow("RSS with \(n) queued, MB", value: Double(rssFull) / 1024, floor: Double(rssEmpty) / 1024, format: "%.1f",
                 target: size >= 100_000 ? "< 40" : "—", ok: size >= 100_000 ? rssFull < 40 * 1024 : nil).emit()
        BenchRow("RSS with \(n) queued while a save runs (highest of 12 samples), MB", value: Double(rssSaving) / 1024,
                 floor: Double(rssEmpty) / 1024, format: "%.1f", target: "—", ok: nil).emit()
        BenchRow("bytes per queued entry (\(n))", value: bytesPerEntry, floor: nil, format: "%.0f", target: "< 120",
                 ok: bytesPerEntry < 120).emit()
        BenchRow("state.json with \(n) queued, KiB", value: Double(stateKiB), floor: nil, format: "%.0f", target: "—", ok: nil).emit()
        BenchRow("SIGTERM → exit with \(n) queued, ms", value: stopMilliseconds, floor: nil, format: "%.0f", target: "< 1000",
                 ok: stopMilliseconds < 1000).emit()
        BenchRow("restart with \(n): spawn → name owned, ms", value: restart.ownedMilliseconds, floor: nil, format: "%.1f",
                 target: "< 50", ok: restart.ownedMilliseconds < 50).emit()
        BenchRow("restart with \(n): spawn → first answer, ms", value: restart.firstAnswerMilliseconds, floor: nil,
                 format: "%.1f", target: "< 50", ok: restart.firstAnswerMilliseconds < 50).emit()
        BenchRow("restart with \(n): spawn → whole queue back, ms", value: restart.restoredMilliseconds, floor: nil,
                 format: "%.1f", target: "—", ok: nil).emit()
        BenchRow("restart with \(n): longest wait while it fills, ms", value: restart.longestWaitMilliseconds, floor: nil,
                 format: "%.1f", target: stallTarget, ok: restart.longestWaitMilliseconds < 50).emit()
        BenchRow("restart with \(n): RSS at rest once restored, MB", value: Double(restart.rssAtRestKiB) / 1024,
                 floor: Double(rssEmpty) / 1024, format: "%.1f", target: size >= 100_000 ? "< 40" : "—",
                 ok: size >= 100_000 ? restart.rssAtRestKiB < 40 * 1024 : nil).emit()
        return rssFull - rssEmpty
    }

    /// Between two measured calls, so a poller call still under way when one ends does not wait for the
    /// next one too and count it against the first (a Get(Tracks) of 100 000 paths right after a ReplaceQueue).
    private func pause() { usleep(300_000) }

    /// Runs `body` and returns its wall time and its span on the monotonic clock the probe stamps with.
    private func window(_ body: () throws -> Void) throws -> (seconds: Double, span: (Int64, Int64)) {
        let start = EventLoop.monotonicMicroseconds
        try body()
        let end = EventLoop.monotonicMicroseconds
        return (Double(end - start) / 1e6, (start, end))
    }
}

/// quaverd started again on the state it saved: when it owns its name, answers, and has the whole queue.
/// It calls Get(QueueLength) in a loop from spawn until the queue is all there, so the longest of those
/// calls is the longest a client waited while the queue was being restored.
private struct Restart {
    let quaverd: BenchQuaverd
    var ownedMilliseconds = 0.0, firstAnswerMilliseconds = 0.0, restoredMilliseconds = 0.0, longestWaitMilliseconds = 0.0
    var firstLength = 0
    var rssKiB = 0, rssAtRestKiB = 0

    init(bus: BenchBus, home: URL, expected: Int) throws {
        quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: home)
        ownedMilliseconds = Double(quaverd.startMicroseconds) / 1000
        var first = true
        while true {
            let start = EventLoop.monotonicMicroseconds
            let length = Int(try quaverd.client.queueLength())
            let now = EventLoop.monotonicMicroseconds
            if first {
                firstAnswerMilliseconds = Double(now - quaverd.spawnedAt) / 1000
                firstLength = length
                first = false
            } else {
                longestWaitMilliseconds = max(longestWaitMilliseconds, Double(now - start) / 1000)
            }
            if length == expected { restoredMilliseconds = Double(now - quaverd.spawnedAt) / 1000; break }
            guard now - quaverd.spawnedAt < 60_000_000 else { throw BenchError("quaverd restored \(length) of \(expected)") }
            usleep(2000)
        }
        rssKiB = ProcessCounters.residentKiB(quaverd.pid)
        // Reading the state file leaves its text in freed heap for half a second (ProcessMemory) and the tag
        // reader saves now and then: the lowest of 12 samples over 3 s is what the restored queue costs.
        rssAtRestKiB = residentKiBOverThreeSeconds(quaverd.pid).lowest
    }
}

/// The probe's answer times: when each call started and how long it waited, in microseconds.
struct ProbeSamples {
    var starts: [Int64] = [], waits: [Int64] = []
    var count: Int { waits.count }

    /// The longest wait of a call that was under way at any time during `span`.
    func longestWait(in span: (Int64, Int64)) -> Double {
        var longest: Int64 = 0
        for (start, wait) in zip(starts, waits) where start <= span.1 && start + wait >= span.0 { longest = max(longest, wait) }
        return Double(longest) / 1000
    }
}

/// Symbolic links to one file in a temporary folder (a file takes at most 65 000 hard links on ext4), or hard
/// links (a folder of files as `quaver add` finds one), and a private HOME for the daemon.
struct Workspace {
    private let folder: TemporaryDirectory
    var root: URL { folder.url }
    let uris: [String]
    var music: URL { root.appendingPathComponent("music") }
    var home: URL { root.appendingPathComponent("home") }
    var stopFile: String { root.appendingPathComponent("stop").path }
    var samplesFile: String { root.appendingPathComponent("samples").path }

    init(tracks: Int, linking source: URL, hardLinks: Bool = false) throws {
        folder = try TemporaryDirectory(prefix: "quaver-queue-scale")
        let music = folder.url.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("home"), withIntermediateDirectories: true)
        uris = try (1...tracks).map { number in
            let link = music.appendingPathComponent(String(format: "track-%06d.", number) + source.pathExtension)
            guard (hardLinks ? Glibc.link(source.path, link.path) : symlink(source.path, link.path)) == 0 else {
                throw ValidationError("cannot link \(source.path) to \(link.path): \(String(cString: strerror(errno)))")
            }
            return link.absoluteString
        }
    }

    func stateFileSize() -> Int {
        let path = home.appendingPathComponent("state/quaver/state.json").path
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func probeSamples() throws -> ProbeSamples {
        var samples = ProbeSamples()
        for line in try String(contentsOfFile: samplesFile, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let start = Int64(fields[0]), let wait = Int64(fields[1]) else { continue }
            samples.starts.append(start)
            samples.waits.append(wait)
        }
        return samples
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// The lowest and highest of 12 samples of `pid`'s RSS, a quarter of a second apart.
private func residentKiBOverThreeSeconds(_ pid: pid_t) -> (lowest: Int, highest: Int) {
    let samples = (0..<12).map { _ in usleep(250_000); return ProcessCounters.residentKiB(pid) }
    return (samples.min() ?? 0, samples.max() ?? 0)
}

private func trackPaths(_ quaverd: BenchQuaverd) throws -> [ObjectPath] {
    try quaverd.client.trackIDs()
}

private func metadata(_ ids: [ObjectPath], _ quaverd: BenchQuaverd) throws -> [[String: DBusValue]] {
    try quaverd.client.tracksMetadata(ids)
}

/// For `queue-scale`: calls Get(PlaybackStatus) every 5 ms (a client polling the player; `--identity`:
/// Get(Identity), every `--interval` ms) until the stop file appears, then writes each call's start and wait
/// (µs, monotonic clock) to the samples file. Prints "polling" after its first answer and "done" at the end. Hidden.
struct QueueScaleProbe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue-scale-probe", shouldDisplay: false)
    @Option var address: String
    @Option var stopFile: String
    @Option var samplesFile: String
    @Flag var identity = false
    @Option var interval = 5

    func run() throws {
        let client = QuaverClient(connection: try Connection(address: address), timeout: 60)
        var lines = ""
        var announced = false
        while !FileManager.default.fileExists(atPath: stopFile) {
            let start = EventLoop.monotonicMicroseconds
            _ = try identity ? client.identity : client.playbackStatus
            lines += "\(start) \(EventLoop.monotonicMicroseconds - start)\n"
            if !announced { print("polling"); announced = true }
            usleep(UInt32(interval * 1000))
        }
        try lines.write(toFile: samplesFile, atomically: true, encoding: .utf8)
        print("done")
    }
}
