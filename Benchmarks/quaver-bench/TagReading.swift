import ArgumentParser
import EventLoop
import Foundation
import GStreamerEngine
import PlayerCore
import TestRigs

/// Tag reading (TagReader, GstDiscoverer) of hostile files against a normal one, in the same run: in the
/// background, and at once on the loop (`readNow`, which holds the loop while a track becomes current).
/// Each file is read by a child process of its own, so its peak memory is its own.
struct TagReading: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag-reading",
        abstract: "Time and memory to read the tags of hostile files (50 MB cover, 10 000 artists, 1 MB title) against a normal one.")

    @Option(help: "Reads of each file.")
    var reads = 5

    func run() throws {
        let folder = try TemporaryDirectory(prefix: "quaver-bench-tags")
        let media = try HostileMedia(in: folder.url)
        let binary = BenchProcess.ownProgram
        let files = [("normal", media.normal), ("50 MB cover", media.hugeCover), ("10 000 artists", media.manyArtists),
                     ("1 MB title", media.hugeTitle)]
        var normal: (ms: Double, kib: Double, nowMS: Double)?
        for (name, file) in files {
            let child = try BenchProcess(binary, ["tag-reading-probe", "--file", file.path, "--reads", "\(reads)"])
            let fields = try child.firstLine().split(separator: " ").compactMap { Double($0) }
            child.stop()
            guard fields.count == 4 else { throw BenchError("tag-reading-probe said nothing useful for \(name)") }
            let (ms, baseKiB, peakKiB, nowMS) = (fields[0], fields[1], fields[2], fields[3])
            print(String(format: "%@: %.1f ms per read (median of %d); memory %.0f → peak %.0f KiB (+%.0f); "
                         + "read at once on the loop: %.1f ms", name, ms, reads, baseKiB, peakKiB, peakKiB - baseKiB, nowMS))
            if normal == nil { normal = (ms, peakKiB - baseKiB, nowMS) }
            BenchRow("tag read: \(name), ms", value: ms, floor: normal?.ms, format: "%.1f", target: "—", ok: nil).emit()
            BenchRow("tag read: \(name), peak +KiB", value: peakKiB - baseKiB, floor: normal?.kib, format: "%.0f",
                     target: "—", ok: nil).emit()
            BenchRow("tag read at once (loop held): \(name), ms", value: nowMS, floor: normal?.nowMS, format: "%.1f",
                     target: "—", ok: nil).emit()
        }
    }
}

/// One file read `reads` times by a TagReader on the GLib loop; prints the median milliseconds per read, the
/// resident memory before the first read and the peak after the last (KiB), then the median milliseconds of
/// `readNow` (after those reads), on one line.
struct TagReadingProbe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tag-reading-probe", shouldDisplay: false)

    @Option var file: String
    @Option var reads = 5

    func run() throws {
        let reader = TagReader()
        var done = 0
        reader.onRead = { _, _, _ in done += 1 }
        let item = EngineItem(id: TrackID(1), uri: URL(fileURLWithPath: file).absoluteString)
        let base = ProcessCounters.residentKiB(getpid())
        var samples: [Double] = []
        for round in 1...reads {
            let started = EventLoop.monotonicMicroseconds
            reader.enqueue([item])
            guard EventLoop.main.run(until: { done == round }, timeout: 60) else { throw BenchError("no read of \(file)") }
            samples.append(Double(EventLoop.monotonicMicroseconds - started) / 1000)
        }
        let peak = ProcessCounters.peakRSSKiB(getpid())
        let now = (1...reads).map { _ in
            let started = EventLoop.monotonicMicroseconds
            _ = reader.readNow(item)
            return Double(EventLoop.monotonicMicroseconds - started) / 1000
        }
        print(median(samples), base, peak, median(now))
    }
}
