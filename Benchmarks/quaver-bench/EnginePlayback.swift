import ArgumentParser
import EventLoop
import Foundation
import GStreamerEngine
import PlayerCore
import TestRigs

/// CPU time and peak memory of playing one file through our engine, against `gst-launch-1.0 playbin`
/// on the same file and sink, each in a child process measured with wait4's rusage.
struct EnginePlayback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine-playback",
        abstract: "CPU seconds and peak RSS of playing a file: GStreamerEngine vs gst-launch-1.0 playbin.")

    @Option(help: "The file to play (default: a generated FLAC tone of --seconds).")
    var file: String?
    @Option(help: "Length of the generated tone.")
    var seconds = 20

    @Option(help: "Sink description for both players.")
    var sink = "fakesink sync=true"

    func run() throws {
        let scratch = try TemporaryDirectory(prefix: "quaver-bench")
        defer { withExtendedLifetime(scratch) {} }  // the tone is played after its last mention
        let path = try file ?? tone("flac", seconds: seconds, in: scratch.url)
        let uri = URL(fileURLWithPath: path).absoluteString
        print("file: \(path)\nsink: \(sink)")
        let ours = try measure(["/proc/self/exe", "engine-playback-child", "--uri", uri, "--sink", sink])
        let floor = try measure(["/usr/bin/gst-launch-1.0", "-q", "playbin", "uri=\(uri)", "audio-sink=\(sink)"])
        report("quaver engine", ours, against: nil)
        report("gst-launch playbin", floor, against: nil)
        report("ratio engine/gst-launch", ours, against: floor)
    }

    private func report(_ label: String, _ usage: Usage, against floor: Usage?) {
        if let floor {
            print(label.padding(toLength: 24, withPad: " ", startingAt: 0), String(format: "cpu x%.2f  rss x%.2f  wall x%.2f",
                         usage.cpu / floor.cpu, Double(usage.maxRSSKiB) / Double(floor.maxRSSKiB), usage.wall / floor.wall))
        } else {
            print(label.padding(toLength: 24, withPad: " ", startingAt: 0),
                  String(format: "cpu %.3f s (user %.3f + sys %.3f)  peak rss %d KiB  wall %.2f s", usage.cpu, usage.user, usage.system, usage.maxRSSKiB, usage.wall))
        }
    }
}

/// The engine side of the benchmark, run as a child so its rusage is its own.
struct EnginePlaybackChild: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine-playback-child", shouldDisplay: false)

    @Option var uri: String
    @Option var sink: String

    func run() throws {
        let engine = GStreamerEngine(configuration: .init(sink: sink, applicationName: "quaver-bench"))
        let waiter = EndWaiter()
        engine.delegate = waiter
        engine.load(EngineItem(id: TrackID(1), uri: uri), at: .zero, playing: true)
        EventLoop.main.run(until: { waiter.outcome != nil }, timeout: 3_600)
        if case .failed(_, let error)? = waiter.outcome { throw error }
    }
}

private final class EndWaiter: AudioEngineDelegate {
    var outcome: AudioEngineEvent?
    func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) {
        switch event {
        case .endOfStream, .failed: outcome = event
        default: break
        }
    }
}

private struct Usage {
    var user: Double, system: Double, maxRSSKiB: Int, wall: Double
    var cpu: Double { user + system }
}

/// Spawns `argv` and waits with `wait4` for its resource usage.
private func measure(_ argv: [String]) throws -> Usage {
    let started = Date()
    var pid: pid_t = 0
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let spawned = posix_spawn(&pid, argv[0], nil, nil, &cArguments, environ)
    guard spawned == 0 else { throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { throw BenchError("wait4 failed for \(argv[0])") }
    guard status == 0 else { throw BenchError("\(argv.joined(separator: " ")) exited with status \(status)") }
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return Usage(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime), maxRSSKiB: usage.ru_maxrss,
                 wall: Date().timeIntervalSince(started))
}

func runTool(_ path: String, _ arguments: [String]) throws {
    _ = try measure([path] + arguments)
}

