import EventLoop
import TestRigs
import Foundation

/// `quaver add DIR` of a folder of `size` hard links of one Ogg on a fresh quaverd, while a probe process
/// calls Get(Identity) every 20 ms (issue 31): the CLI walks the folder and sends AddFolderTracks, the
/// daemon checks and queues the files in slices, answers, signals TrackListReplaced and starts reading
/// their tags. The longest answer the probe waited for during the command, and during the tag reading after it.
struct FolderAdd {
    let size: Int
    let bus: BenchBus
    let settleSeconds: Double

    func measure() throws {
        let scratch = try TemporaryDirectory(prefix: "quaver-folder-add")
        let ogg = URL(fileURLWithPath: try tone("ogg", seconds: 10, in: scratch.url))
        let work = try Workspace(tracks: size, linking: ogg, hardLinks: true)
        defer { work.remove() }
        let quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: work.home)
        defer { quaverd.stop() }
        _ = try quaverd.client.identity
        let binary = BenchProcess.ownProgram
        let probe = try BenchProcess(binary, ["queue-scale-probe", "--address", bus.address, "--stop-file", work.stopFile,
                                              "--samples-file", work.samplesFile, "--identity", "--interval", "20"])
        _ = try probe.firstLine()

        let start = EventLoop.monotonicMicroseconds
        try runTool(BenchProcess.sibling("quaver"), ["add", "--bus-address", bus.address, work.music.path])
        let added = EventLoop.monotonicMicroseconds
        usleep(UInt32(settleSeconds * 1_000_000))
        let settled = EventLoop.monotonicMicroseconds
        _ = FileManager.default.createFile(atPath: work.stopFile, contents: nil)
        _ = try probe.firstLine()
        let samples = try work.probeSamples()
        let queued = try quaverd.client.queueLength()
        guard queued == size else { throw BenchError("quaver add queued \(queued) of \(size) files") }

        let n = size.formatted(.number.grouping(.automatic)).replacingOccurrences(of: ",", with: " ")
        let during = samples.longestWait(in: (start, added)), after = samples.longestWait(in: (added, settled))
        print(String(format: "quaver add of a folder of %@ Ogg files: %.2f s; longest Get(Identity) wait (every 20 ms, "
                     + "%d answers): %.1f ms during it, %.1f ms in the %.0f s of tag reading after it", n,
                     Double(added - start) / 1e6, samples.count, during, after, settleSeconds))
        BenchRow("quaver add DIR of \(n) files: longest Get(Identity) wait, ms", value: during, floor: nil,
                 format: "%.1f", target: "< 50", ok: during < 50).emit()
        BenchRow("quaver add DIR of \(n) files: longest wait while their tags are read, ms", value: after,
                 floor: nil, format: "%.1f", target: "< 50", ok: after < 50).emit()
    }
}
