import ArgumentParser
import EventLoop
import Foundation
import GStreamerEngine
import RemoteMedia
import PlayerCore
import TestRigs

/// Network playback against the tests' nginx on 127.0.0.1 (http and https, started and stopped here):
/// time to audible playing over a throttled link, time to resume after a far seek and after a load at
/// 45 s, and bytes fetched on the second play of a cached file, over http and over https.
struct NetworkPlayback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network-playback",
        abstract: "Start time on a 256 kbit/s link, resume time after a far seek and after a load at 45 s, bytes of a cached replay (http, https).")

    @Option(help: "Throttle in bytes per second (256 kbit/s = 32768).")
    var rate = 32_768

    func run() throws {
        let scratch = try TemporaryDirectory(prefix: "quaver-net-bench")
        let www = scratch.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let wav = scratch.url.appendingPathComponent("tone.wav").path
        try runTool("/usr/bin/sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "60", "sine", "330", "vol", "0.5"])
        try runTool("/usr/bin/lame", ["--silent", "-b", "128", wav, www.appendingPathComponent("long.mp3").path])
        let server = try NginxServer(root: www, slowRate: rate)
        defer { server.stop() }
        setenv("SSL_CERT_FILE", server.certificate.path, 1)
        let cache = try MediaCache(directory: scratch.url.appendingPathComponent("cache"), capacityBytes: 256 << 20)
        let engine = GStreamerEngine(configuration: .init(sink: "fakesink sync=true", applicationName: "quaver-bench",
                                                              network: .init(cache: cache)))
        print("link: \(rate) B/s (\(rate * 8 / 1024) kbit/s), file: 60 s MP3 at 128 kbit/s")

        let start = timeUntilAdvancing(engine, server.url("slow/long.mp3"), id: 1, from: 0)
        BenchRow("OpenUri → position advancing, 256 kbit/s link, s", value: start, floor: nil, format: "%.3f",
                 target: "—", ok: nil).emit()
        let seekStarted = EventLoop.monotonicMicroseconds
        engine.seek(to: .seconds(45), exact: false)
        _ = waitUntil(timeout: 120) { (engine.position.map { $0 > .milliseconds(45_200) }) ?? false }
        let seek = Double(EventLoop.monotonicMicroseconds - seekStarted) / 1e6
        BenchRow("far seek (45 s) → advancing, 256 kbit/s link, s", value: seek, floor: nil, format: "%.3f",
                 target: "—", ok: nil).emit()
        engine.stop()
        let load = timeUntilAdvancing(engine, server.url("slow/long.mp3?resume"), id: 2, from: 45)
        BenchRow("load at 45 s (uncached) → advancing, 256 kbit/s, s", value: load, floor: nil, format: "%.3f",
                 target: "—", ok: nil).emit()
        engine.stop()
        for (scheme, url) in [("http", server.url("slow/long.mp3?seeks")), ("https", server.secureURL("slow/long.mp3?seeks"))] {
            let seeks = fiveSeeks(engine, url, server)
            BenchRow("five seeks into one \(scheme) file, 256 kbit/s link, s", value: seeks.seconds, floor: nil,
                     format: "%.3f", target: "—", ok: nil).emit()
            BenchRow("five seeks into one \(scheme) file, TCP connections", value: Double(seeks.connections), floor: nil,
                     format: "%.0f", target: "—", ok: nil).emit()
        }
        for (scheme, url) in [("http", server.url("long.mp3")), ("https", server.secureURL("long.mp3"))] {
            let bytes = try secondPlayBodyBytes(engine, url, server, size: fileSize(www.appendingPathComponent("long.mp3")))
            print("second play of a cached \(scheme) file: \(bytes.total) body bytes in \(bytes.requests) request(s)")
            BenchRow("second play of a cached \(scheme) file, body bytes", value: Double(bytes.total), floor: 0,
                     format: "%.0f", target: "0", ok: bytes.total == 0).emit()
        }
    }

    /// Plays `url` until its download is complete (`size` bytes logged), then again: what the second play fetched.
    private func secondPlayBodyBytes(_ engine: GStreamerEngine, _ url: String, _ server: NginxServer,
                                     size: Int) throws -> (total: Int, requests: Int) {
        let logged = server.accessLog.count
        _ = timeUntilAdvancing(engine, url, id: 3, from: 0)
        guard waitUntil(timeout: 30, { server.accessLog.dropFirst(logged).contains { $0.bodyBytes == size } }) else {
            throw BenchError("the first play of \(url) did not download the whole file")
        }
        engine.stop()
        let before = server.accessLog.count
        _ = timeUntilAdvancing(engine, url, id: 4, from: 0)
        _ = waitUntil(timeout: 1) { false }
        engine.stop()
        let second = server.accessLog.dropFirst(before)
        return (second.map(\.bodyBytes).reduce(0, +), second.count)
    }

    /// Plays `url` from the start, then seeks to five places far apart (each far enough to open a Range
    /// request), waiting each time until the position moves on: total time of the seeks, and the TCP
    /// connections the server saw for the whole play (nginx `$connection`).
    private func fiveSeeks(_ engine: GStreamerEngine, _ url: String, _ server: NginxServer) -> (seconds: Double, connections: Int) {
        let logged = server.accessLog.count
        _ = timeUntilAdvancing(engine, url, id: 5, from: 0)
        let started = EventLoop.monotonicMicroseconds
        for target in [50, 25, 40, 10, 56] {
            engine.seek(to: .seconds(target), exact: false)
            _ = waitUntil(timeout: 60) { (engine.position.map { $0 > .milliseconds(target * 1000 + 200) }) ?? false }
        }
        let seconds = Double(EventLoop.monotonicMicroseconds - started) / 1e6
        engine.stop()
        _ = waitUntil(timeout: 1) { false }
        return (seconds, Set(server.accessLog.dropFirst(logged).map(\.connection)).count)
    }

    private func fileSize(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    private func timeUntilAdvancing(_ engine: GStreamerEngine, _ url: String, id: UInt64, from: Double) -> Double {
        let started = EventLoop.monotonicMicroseconds
        engine.load(EngineItem(id: TrackID(id), uri: url), at: .milliseconds(Int64(from * 1000)), playing: true)
        let target = Duration.milliseconds(Int64(from * 1000) + 200)
        _ = waitUntil(timeout: 120) { (engine.position.map { $0 > target }) ?? false }
        return Double(EventLoop.monotonicMicroseconds - started) / 1e6
    }

    /// Runs the loop until `condition` holds; a 5 ms tick re-checks it, since a position moving on is
    /// no loop event (without it, a wait lasted until the next bus message: 15.9 s for a 2 s seek).
    private func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let tick = EventLoop.main.schedule(after: 0.005, repeating: true) {}
        defer { tick.cancel() }
        return EventLoop.main.run(until: condition, timeout: timeout)
    }
}
