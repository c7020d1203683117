import EventLoop
import Foundation
import GStreamerEngine
import RemoteMedia
import PlayerCore
import TestSupport
import XCTest

/// An nginx serving a 60 s and a 10 s MP3 (128 kbit/s, 16 KB/s) and the gapless sweep's FLAC halves
/// (`sweep-1.flac`, `sweep-2.flac`), a private media cache, and engines that use both. Each test gets its own server, cache and log.
final class NetworkFixture {
    let files: TemporaryDirectory
    let cacheFolder: TemporaryDirectory
    let server: NginxServer
    let cache: MediaCache
    static let longSeconds = 60

    init(slowRate: Int = 32 * 1024, cacheCapacity: UInt64 = 64 << 20) throws {
        files = try TemporaryDirectory(prefix: "quaver-www")
        cacheFolder = try TemporaryDirectory(prefix: "quaver-cache")
        try Self.makeMedia(in: files.url)
        server = try NginxServer(root: files.url, slowRate: slowRate)
        cache = try MediaCache(directory: cacheFolder.url.appendingPathComponent("media"), capacityBytes: cacheCapacity)
    }

    var longSize: UInt64 { size(of: "long.mp3") }
    func size(of name: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: files.url.appendingPathComponent(name).path))?[.size]
            as? UInt64) ?? 0
    }

    func engine(sink: String = "fakesink sync=false", retries: Int = 3, retryDelay: Double = 0.2,
                cached: Bool = true, proxy: String? = nil) throws -> GStreamerEngine {
        let network = GStreamerEngine.NetworkOptions(cache: cached ? cache : nil, retries: retries,
                                                     connectTimeout: 3, retryDelay: retryDelay, proxy: proxy)
        return GStreamerEngine(configuration: .init(sink: sink, applicationName: "Quaver tests", network: network))
    }

    func sidecar(of url: String) -> [String: Any]? {
        guard let data = try? Data(contentsOf: cache.sidecarFile(for: url)) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The sidecar's present ranges as (start, end) pairs.
    func presentRanges(of url: String) -> [(UInt64, UInt64)] {
        let ranges = ((sidecar(of: url)?["present"] as? [String: Any])?["ranges"] as? [[UInt64]]) ?? []
        return ranges.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }

    /// Runs the loop until more than `count` bytes of `url` are in the cache's data file (false after `timeout`),
    /// counted in the blocks it holds: the file is sparse, and a read of its tail gives it its whole length at once.
    func runUntilDownloaded(_ count: UInt64, of url: String, timeout: Double = 20) -> Bool {
        let path = cache.dataFile(for: url).path
        return EventLoop.main.run(until: {
            var info = stat()
            return stat(path, &info) == 0 && UInt64(info.st_blocks) * 512 > count
        }, timeout: timeout)
    }

    func isCached(_ url: String, completely size: UInt64) -> Bool {
        let ranges = presentRanges(of: url)
        return ranges.count == 1 && ranges[0] == (0, size)
    }

    private static func makeMedia(in directory: URL) throws {
        let fixtures = try Fixtures.shared()
        try FileManager.default.copyItem(at: fixtures.mp3, to: directory.appendingPathComponent("short.mp3"))
        for half in [fixtures.sweepHalvesFLAC.0, fixtures.sweepHalvesFLAC.1] {
            try FileManager.default.copyItem(at: half, to: directory.appendingPathComponent(half.lastPathComponent))
        }
        let wav = directory.appendingPathComponent("long.wav").path
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                 "synth", "\(longSeconds)", "sine", "330", "vol", "0.5"])
        try Fixtures.run("lame", ["--silent", "-b", "128", wav, directory.appendingPathComponent("long.mp3").path])
        try FileManager.default.removeItem(atPath: wav)
    }
}

extension NetworkFixture {
    /// Plays `url` to its end on `engine`, stops, and checks that the cache then holds all its `size` bytes.
    func playToEndCached(_ engine: GStreamerEngine, _ url: String, id: UInt64 = 1, size: UInt64, timeout: Double = 30,
                         file: StaticString = #filePath, line: UInt = #line) {
        play(engine, url, id: id).wait(for: .endOfStream(TrackID(id)), timeout: timeout, file: file, line: line)
        engine.stop()
        XCTAssertTrue(eventually(timeout: 5) { isCached(url, completely: size) },
                      "sidecar: \(String(describing: sidecar(of: url)))", file: file, line: line)
    }
}

/// Loads `url` playing from the start into `engine`, with a new recorder for its events.
func play(_ engine: GStreamerEngine, _ url: String, id: UInt64 = 1) -> EventRecorder {
    let recorder = EventRecorder()
    engine.delegate = recorder
    engine.load(EngineItem(id: TrackID(id), uri: url), at: .zero, playing: true)
    return recorder
}

extension EventRecorder {
    /// Waits for `.failed` of any item and returns its error.
    func waitForFailure(timeout: Double = 20, file: StaticString = #filePath, line: UInt = #line) -> EngineError? {
        wait(for: "failed", timeout: timeout, file: file, line: line) { event -> EngineError? in
            if case .failed(_, let error) = event { return error }
            return nil
        }
    }

    var bufferingPercents: [Int] {
        events.compactMap { event -> Int? in
            if case .buffering(let percent) = event { return percent }
            return nil
        }
    }
}
