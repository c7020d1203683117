import ArgumentParser
import EventLoop
import Foundation
import GStreamerEngine
import PlayerCore

/// Network playback against an nginx on 127.0.0.1 started here: time to audible playing over a
/// throttled link, bytes fetched on the second play of a cached file, time to resume after a far seek.
struct NetworkPlayback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network-playback",
        abstract: "Start time on a 256 kbit/s link, resume time after a far seek and after a load at 45 s, bytes of a cached replay.")

    @Option(help: "Throttle in bytes per second (256 kbit/s = 32768).")
    var rate = 32_768

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quaver-net-bench.\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let www = scratch.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let wav = scratch.appendingPathComponent("tone.wav").path
        try shell("sox -q -n -r 44100 -c 2 -b 16 \(wav) synth 60 sine 330 vol 0.5 && lame --silent -b 128 \(wav) \(www.path)/long.mp3")
        let port = 18_000 + Int(getpid() % 2000)
        let conf = """
            daemon off; master_process off; pid \(www.path)/nginx.pid; error_log \(www.path)/logs/error.log;
            events {} http { log_format b '$status $body_bytes_sent'; access_log \(www.path)/logs/access.log b;
            client_body_temp_path \(www.path)/tmp; server { listen 127.0.0.1:\(port); root \(www.path);
            location /slow/ { alias \(www.path)/; limit_rate \(rate); } } }
            """
        try conf.write(toFile: "\(www.path)/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = Process()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", www.path, "-c", "nginx.conf"]
        try nginx.run()
        defer { nginx.terminate(); nginx.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.5)
        let cache = try MediaCache(directory: scratch.appendingPathComponent("cache"), capacityBytes: 256 << 20)
        let engine = try GStreamerEngine(configuration: .init(sink: "fakesink sync=true", applicationName: "quaver-bench",
                                                              network: .init(cache: cache)))
        let url = "http://127.0.0.1:\(port)/slow/long.mp3"
        print("link: \(rate) B/s (\(rate * 8 / 1024) kbit/s), file: 60 s MP3 at 128 kbit/s")
        print(String(format: "load → position advancing: %.3f s", timeUntilAdvancing(engine, url, id: 1, from: 0)))
        let started = EventLoop.monotonicMicroseconds
        engine.seek(to: .seconds(45), exact: false)
        _ = waitUntil(timeout: 120) { (engine.position.map { $0 > .milliseconds(45_200) }) ?? false }
        print(String(format: "far seek (45 s) → position advancing: %.3f s", Double(EventLoop.monotonicMicroseconds - started) / 1e6))
        engine.stop()
        let resumed = "http://127.0.0.1:\(port)/slow/long.mp3?resume"
        print(String(format: "load at 45 s (uncached) → position advancing: %.3f s",
                     timeUntilAdvancing(engine, resumed, id: 4, from: 45)))
        engine.stop()
        // Let the first download finish, then replay the complete file.
        let fast = "http://127.0.0.1:\(port)/long.mp3"
        _ = timeUntilAdvancing(engine, fast, id: 2, from: 0)
        engine.stop()
        _ = waitUntil(timeout: 10) { false }
        let before = bodyBytes(www)
        _ = timeUntilAdvancing(engine, fast, id: 3, from: 0)
        _ = waitUntil(timeout: 1) { false }
        engine.stop()
        print("second play of a cached file: \(bodyBytes(www).total - before.total) body bytes in \(bodyBytes(www).count - before.count) request(s)")
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

    private func bodyBytes(_ www: URL) -> (total: Int, count: Int) {
        let lines = ((try? String(contentsOfFile: "\(www.path)/logs/access.log", encoding: .utf8)) ?? "").split(separator: "\n")
        return (lines.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +), lines.count)
    }

    private func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CleanExit.message("failed: \(command)") }
    }
}
