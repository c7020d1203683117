import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation

/// A large queue on the real quaverd (private bus, private HOME, `fakesink sync=true`): queueing N tracks
/// with AddTrack while a probe process measures how long the daemon leaves a Get unanswered, then the cost
/// of Tracks and GetTracksMetadata, the daemon's memory, the background tag-reading rate, the state file
/// and the time SIGTERM takes to save it all.
struct QueueScale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue-scale",
        abstract: "Queue 20 000 tracks on the real quaverd: longest answer gap, Tracks/GetTracksMetadata, memory.")

    @Option(help: "A decodable audio file; the queued tracks are hard links to it.")
    var file = "demo/01 Morning Arpeggio.flac"
    @Option(help: "Tracks to queue.")
    var tracks = 20_000
    @Option(help: "Seconds to watch background tag reading after queueing.")
    var tagSeconds = 10.0

    func run() throws {
        let work = try Workspace(tracks: tracks, linking: URL(fileURLWithPath: file).standardizedFileURL)
        defer { work.remove() }
        let binary = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let bus = try BenchBus()
        defer { bus.stop() }
        let quaverd = try BenchQuaverd(on: bus, output: "fakesink sync=true", home: work.home)
        defer { quaverd.stop() }
        let rssEmpty = memory(quaverd)
        let probe = try BenchProcess(binary, ["queue-scale-probe", "--address", bus.address, "--stop-file", work.stopFile])

        let addStart = EventLoop.monotonicMicroseconds
        try queue(work.uris, bus.client)
        let addSeconds = Double(EventLoop.monotonicMicroseconds - addStart) / 1e6
        print(String(format: "AddTrack × %d: %.1f s (%.0f tracks/s)", tracks, addSeconds, Double(tracks) / addSeconds))
        let paths = try trackPaths(quaverd)
        print("Get(Tracks) with \(paths.count) tracks: \(try time { _ = try trackPaths(quaverd) })")
        let thousand = Array(paths.suffix(1000))
        print("GetTracksMetadata(1 000 ids): \(try time { _ = try metadata(thousand, quaverd) })")
        let rssFull = memory(quaverd)
        print("quaverd memory: empty \(rssEmpty.rss) kB; with \(paths.count) tracks VmRSS \(rssFull.rss) kB, "
            + "VmHWM \(rssFull.hwm) kB (\((rssFull.rss - rssEmpty.rss) * 1024 / max(1, paths.count)) bytes/track)")
        try watchTagReading(paths, quaverd)

        _ = FileManager.default.createFile(atPath: work.stopFile, contents: nil)
        print("Get(PlaybackStatus) answer times while queueing and reading tags: \(try probe.firstLine())")
        let stopStart = EventLoop.monotonicMicroseconds
        quaverd.stop()
        print(String(format: "SIGTERM to exit (final save): %.0f ms; state.json %d kB",
                     Double(EventLoop.monotonicMicroseconds - stopStart) / 1000, work.stateFileSize() / 1024))
    }

    /// Appends each URI after the previous one; a fresh daemon numbers tracks 1, 2, 3…
    private func queue(_ uris: [String], _ client: Connection) throws {
        var after = ObjectPath(stringLiteral: ControlAPI.TrackPath.noTrack)
        for (index, uri) in uris.enumerated() {
            _ = try client.call(destination: ControlAPI.busName, path: BenchQuaverd.path, interface: ControlAPI.trackListInterface,
                                method: "AddTrack", arguments: [.string(uri), .objectPath(after), .boolean(false)])
            after = try ObjectPath(ControlAPI.TrackPath.path(of: UInt64(index + 1)))
        }
    }

    /// Tags are read in queue order: the first track still without a length tells how far the reader got.
    private func watchTagReading(_ paths: [ObjectPath], _ quaverd: BenchQuaverd) throws {
        let before = try readCount(paths, quaverd)
        usleep(UInt32(tagSeconds * 1_000_000))
        let after = try readCount(paths, quaverd)
        print(String(format: "background tag reading: %d of %d tracks read, %.0f tracks/s over %.0f s",
                     after, paths.count, Double(after - before) / tagSeconds, tagSeconds))
    }

    private func readCount(_ paths: [ObjectPath], _ quaverd: BenchQuaverd) throws -> Int {
        var low = 0, high = paths.count  // invariant: paths[..<low] are read, paths[high...] are not
        while low < high {
            let middle = (low + high) / 2
            let entry = try metadata([paths[middle]], quaverd).first
            if entry?["mpris:length"] != nil { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func time(_ body: () throws -> Void) throws -> String {
        var samples: [Int64] = []
        for _ in 0..<5 {
            let start = EventLoop.monotonicMicroseconds
            try body()
            samples.append(EventLoop.monotonicMicroseconds - start)
        }
        samples.sort()
        return String(format: "median %.1f ms, max %.1f ms (5 calls)", Double(samples[2]) / 1000, Double(samples[4]) / 1000)
    }
}

/// Hard links to one file in a temporary folder, and a private HOME for the daemon.
private struct Workspace {
    let root: URL
    let uris: [String]
    var home: URL { root.appendingPathComponent("home") }
    var stopFile: String { root.appendingPathComponent("stop").path }

    init(tracks: Int, linking source: URL) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("quaver-queue-scale.\(getpid())")
        let music = root.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("home"), withIntermediateDirectories: true)
        uris = try (1...tracks).map { number in
            let link = music.appendingPathComponent(String(format: "track-%05d.flac", number))
            guard Glibc.link(source.path, link.path) == 0 else {
                throw ValidationError("cannot link \(source.path) to \(link.path): \(String(cString: strerror(errno)))")
            }
            return link.absoluteString
        }
    }

    func stateFileSize() -> Int {
        let path = home.appendingPathComponent("state/quaver/state.json").path
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// quaverd on the bench's bus with HOME and the XDG folders inside the workspace.
private func trackPaths(_ quaverd: BenchQuaverd) throws -> [ObjectPath] {
    let reply = try quaverd.call("Get", [.string(ControlAPI.trackListInterface), .string("Tracks")],
                                 interface: ControlAPI.propertiesInterface)
    return (reply.first?.unwrapped.arrayValue ?? []).compactMap(\.objectPathValue)
}

private func metadata(_ ids: [ObjectPath], _ quaverd: BenchQuaverd) throws -> [[String: DBusValue]] {
    let reply = try quaverd.call("GetTracksMetadata", [.objectPathArray(ids)], interface: ControlAPI.trackListInterface)
    return (reply.first?.arrayValue ?? []).map { $0.dictionaryValue ?? [:] }
}

/// VmRSS and VmHWM of the daemon, in kB (/proc/<pid>/status).
private func memory(_ quaverd: BenchQuaverd) -> (rss: Int, hwm: Int) {
    let status = (try? String(contentsOfFile: "/proc/\(quaverd.pid)/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// For `queue-scale`: calls Get(PlaybackStatus) every millisecond until the stop file appears, then prints
/// one line with the answer times (the longest is the longest the daemon left a client waiting). Hidden.
struct QueueScaleProbe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue-scale-probe", shouldDisplay: false)
    @Option var address: String
    @Option var stopFile: String

    func run() throws {
        let client = try Connection(address: address)
        var samples: [Int64] = []
        while !FileManager.default.fileExists(atPath: stopFile) {
            let start = EventLoop.monotonicMicroseconds
            _ = try client.call(destination: ControlAPI.busName, path: BenchQuaverd.path,
                                interface: ControlAPI.propertiesInterface, method: "Get",
                                arguments: [.string(ControlAPI.playerInterface), .string("PlaybackStatus")])
            samples.append(EventLoop.monotonicMicroseconds - start)
            usleep(1000)
        }
        samples.sort()
        let p99 = samples.isEmpty ? 0 : samples[samples.count * 99 / 100]
        print(String(format: "%d answers, median %.2f ms, p99 %.2f ms, longest %.1f ms", samples.count,
                     Double(samples.isEmpty ? 0 : samples[samples.count / 2]) / 1000, Double(p99) / 1000,
                     Double(samples.last ?? 0) / 1000))
    }
}
