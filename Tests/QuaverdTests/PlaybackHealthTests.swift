import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// Playback health on org.quaver.Quaver1 from the real daemon: BufferedRanges while nginx on 127.0.0.1 sends
/// a file slowly, WaitingReason through a load and a stall, each entry's status and error kind in GetQueue,
/// GetTrackStatistics, and the read-only properties refusing a Set.
final class PlaybackHealthTests: XCTestCase {
    private var files: TemporaryDirectory!

    override func setUpWithError() throws {
        files = try TemporaryDirectory(prefix: "quaverd-www")
        try FileManager.default.copyItem(at: try Media.fixtures().mp3, to: files.url.appendingPathComponent("song.mp3"))
    }

    override func tearDown() { files = nil }

    func testWaitingReasonGoesFromLoadingToNoneForALocalFileWithNoBufferedRanges() throws {
        let flac = try Media.fixtures().flac
        let daemon = try RunningDaemon([flac.path])
        XCTAssertEqual(try quaverProperty(daemon, QuaverProperty.waitingReason).stringValue, "none")
        let (subscription, changes) = try recordChanges(daemon)
        defer { subscription.cancel() }
        try daemon.call("Play")
        XCTAssertTrue(EventLoop.main.run(until: { self.reasons(changes()).last == "none" }, timeout: 10), "\(changes())")
        XCTAssertEqual(reasons(changes()), ["loading", "none"])
        XCTAssertEqual(try quaverProperty(daemon, QuaverProperty.bufferedRanges).arrayValue?.count, 0)

        let statistics = try trackStatistics(daemon)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: flac.path)[.size] as? Int)
        XCTAssertEqual(statistics[StatisticsKey.bytesTotal]?.int64Value, Int64(size))
        XCTAssertEqual(statistics[StatisticsKey.bytesFetched]?.int64Value, 0)
        XCTAssertEqual(statistics[StatisticsKey.stalls]?.int64Value, 0)
        XCTAssertEqual(statistics[StatisticsKey.decoder]?.stringValue, "flacdec")
        XCTAssertEqual(Double(statistics[StatisticsKey.bitrate]?.int64Value ?? 0), Double(size * 8 / Fixtures.toneSeconds),
                       accuracy: Double(size * 8 / Fixtures.toneSeconds) * 0.02)
    }

    /// 16 KiB/s for an MP3 of 10 s at 128 kbit/s: the download takes about as long as the track. The part
    /// downloaded from the start (playbin also reads the file's last bytes, a range of its own) grows from
    /// signal to signal, at most a few a second, until BufferedRanges is the whole track.
    func testBufferedRangesGrowWhileAThrottledRemoteFileDownloads() throws {
        let server = try NginxServer(root: files.url)
        let daemon = try RunningDaemon()
        let (subscription, changes) = try recordChanges(daemon)
        defer { subscription.cancel() }
        let follower = try ChildProcess(productsDirectory.appendingPathComponent("quaver").path,
                                        ["status", "--bus-address", daemon.bus.address, "--follow"],
                                        environment: daemon.bus.environment, logDirectory: daemon.home.url, name: "follow")
        defer { follower.stop() }
        try daemon.playerctl("open", server.url("slow/song.mp3"))
        daemon.waitUntil("playing") { daemon.status == "Playing" && daemon.metadata[MetadataKey.length] != nil }
        let started = Date()
        let length = Double(daemon.metadata[MetadataKey.length]?.int64Value ?? 0) / 1_000_000
        XCTAssertTrue(EventLoop.main.run(until: { self.ranges(changes()).last?.count == 1 }, timeout: 40), "\(ranges(changes()))")
        let seconds = Date().timeIntervalSince(started)
        let reports = ranges(changes())
        let fromStart = reports.compactMap { $0.first }
        XCTAssertTrue(fromStart.allSatisfy { $0.start == 0 }, "\(reports)")
        let ends = fromStart.map(\.end)
        XCTAssertGreaterThanOrEqual(ends.count, 4, "\(reports)")
        XCTAssertEqual(ends, ends.sorted(), "the downloaded part only grows")
        XCTAssertLessThan(ends.first ?? length, length * 0.8, "the first report came while it downloaded: \(reports)")
        XCTAssertEqual(ends.last ?? 0, length, accuracy: 0.01)
        XCTAssertLessThanOrEqual(Double(reports.count), seconds * 4 + 2, "\(reports.count) reports in \(seconds) s")
        print("BufferedRanges: \(reports.count) reports in \(String(format: "%.1f", seconds)) s, from the start to \(ends)")
        // Into a pipe the live line is printed once per change: while it played, a bar showed the part played
        // and, after it, the part downloaded ahead.
        let bars = follower.standardOutput.split(separator: "\n").filter { $0.contains("[#") || $0.contains("[=") }
        XCTAssertTrue(bars.contains { $0.hasPrefix("▶") && $0.range(of: #"\[#+=+-*\]"#, options: .regularExpression) != nil },
                      follower.standardOutput)
        print("quaver status --follow:\n" + bars.joined(separator: "\n"))
        let now = try quaverProperty(daemon, QuaverProperty.bufferedRanges).arrayValue ?? []
        XCTAssertEqual(now.count, 1)
        XCTAssertEqual(now.first?.arrayValue?.last?.doubleValue ?? 0, length, accuracy: 0.01)
    }

    /// 8 KiB/s is half what a 30 s MP3 of 128 kbit/s needs: it starts once 2 s are ahead, plays them, and
    /// stalls: WaitingReason goes none → network, the stall is counted, and `quaver stats --json` shows the
    /// download's bytes (a part of the file) and the decoder.
    func testWaitingReasonSaysNetworkDuringAStallAndStatsCountIt() throws {
        let mp3 = files.url.appendingPathComponent("long.mp3")
        let wav = files.url.appendingPathComponent("long.wav")
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", wav.path, "synth", "30", "sine", "440", "vol", "0.3"])
        try Fixtures.run("lame", ["--silent", "-b", "128", wav.path, mp3.path])
        let server = try NginxServer(root: files.url, slowRate: 8 * 1024)
        let daemon = try RunningDaemon()
        let (subscription, changes) = try recordChanges(daemon)
        defer { subscription.cancel() }
        try daemon.playerctl("open", server.url("slow/long.mp3"))
        XCTAssertTrue(EventLoop.main.run(until: {
            let reasons = self.reasons(changes())
            return reasons.firstIndex(of: "none").map { reasons[$0...].contains("network") } ?? false
        }, timeout: 60), "\(reasons(changes()))")
        XCTAssertEqual(reasons(changes()).first, "loading")
        XCTAssertEqual(daemon.status, "Playing", "the user's status stays Playing through the stall")

        let result = try daemon.quaver("stats", ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: mp3.path)[.size] as? Int)
        XCTAssertEqual(json["bytes_total"] as? Int, size, result.stdout)
        XCTAssertGreaterThan(json["bytes_fetched"] as? Int ?? 0, 0, result.stdout)
        XCTAssertLessThan(json["bytes_fetched"] as? Int ?? size, size, result.stdout)
        XCTAssertGreaterThanOrEqual(json["stalls"] as? Int ?? 0, 1, result.stdout)
        XCTAssertEqual(json["retries"] as? Int, 0, result.stdout)
        XCTAssertFalse((json["decoder"] as? String ?? "").isEmpty, result.stdout)
        let text = try daemon.quaver("stats")
        print("quaver stats during a stall:\n\(text.stdout)\(result.stdout)")
        XCTAssertTrue(text.stdout.contains("stalls") && text.stdout.contains("decoder"), text.stdout)
    }

    /// A 404 and a truncated FLAC fail with their kinds, in LastErrorKind as they happen and in GetQueue
    /// afterwards (the URL's login masked in the error); the track that played says ready, and one not tried
    /// yet unknown.
    func testErrorKindsOfA404AndACorruptFileInLastErrorKindAndGetQueue() throws {
        let server = try NginxServer(root: files.url)
        let fixtures = try Media.fixtures()
        let missing = server.url("missing.mp3").replacingOccurrences(of: "http://", with: "http://quaver:Secret1@")
        let daemon = try RunningDaemon([missing, fixtures.truncated.path, fixtures.flac.path,
                                        fixtures.vorbis.path])
        XCTAssertEqual(try quaverProperty(daemon, QuaverProperty.lastErrorKind).stringValue, "")
        let (subscription, changes) = try recordChanges(daemon)
        defer { subscription.cancel() }
        try daemon.call("Play")
        XCTAssertTrue(EventLoop.main.run(until: { daemon.status == "Playing" && daemon.positionSeconds > 0.2 },
                                         timeout: 20), daemon.logTail)
        EventLoop.main.run(until: { self.kinds(changes()).count >= 2 }, timeout: 5)
        XCTAssertEqual(kinds(changes()), ["not-found", "undecodable"])
        XCTAssertEqual(try quaverProperty(daemon, QuaverProperty.lastErrorKind).stringValue, "undecodable")

        let entries = try daemon.call("GetQueue", on: ControlAPI.quaverInterface)[0].arrayValue ?? []
        let metadata = entries.map { ($0.arrayValue?[1].dictionaryValue ?? [:]).mapValues(\.unwrapped) }
        XCTAssertEqual(metadata.map { $0[MetadataKey.status]?.stringValue }, ["failed", "failed", "ready", "unknown"])
        XCTAssertEqual(metadata.map { $0[MetadataKey.errorKind]?.stringValue }, ["not-found", "undecodable", nil, nil])
        XCTAssertTrue(metadata[0][MetadataKey.error]?.stringValue?.contains("missing.mp3") == true, "\(metadata[0])")
        XCTAssertFalse(metadata[0][MetadataKey.error]?.stringValue?.contains("Secret1") ?? true, "the login is masked: \(metadata[0])")
        XCTAssertNil(metadata[2][MetadataKey.error])
    }

    /// The health properties are read-only: Set answers PropertyReadOnly whatever the value's type (a nested
    /// variant, a wrong type), GetTrackStatistics refuses arguments, and nothing changes.
    func testSettingTheHealthPropertiesIsRefusedAndChangesNothing() throws {
        let daemon = try RunningDaemon([try Media.fixtures().flac.path])
        try daemon.call("Play")
        daemon.waitUntil("playing") { daemon.status == "Playing" && daemon.positionSeconds > 0.2 }
        let queue = daemon.tracks
        let attempts: [(String, DBusValue)] = [
            (QuaverProperty.bufferedRanges, .array(element: "(dd)", [.structure([.double(0), .double(5)])])),
            (QuaverProperty.waitingReason, .string("network")),
            (QuaverProperty.waitingReason, .int32(3)),
            (QuaverProperty.lastErrorKind, .variant(.string("network"))),
        ]
        for (property, value) in attempts {
            XCTAssertThrowsError(try daemon.set(property, value, ControlAPI.quaverInterface)) { error in
                XCTAssertTrue("\(error)".contains("PropertyReadOnly") || "\(error)".contains("InvalidArgs"), "\(property): \(error)")
            }
        }
        XCTAssertThrowsError(try daemon.set(QuaverProperty.waitingReason, .string("none"), ControlAPI.quaverInterface)) { error in
            XCTAssertTrue("\(error)".contains("PropertyReadOnly"), "\(error)")
        }
        XCTAssertThrowsError(try daemon.call("GetTrackStatistics", [.string("all")], on: ControlAPI.quaverInterface))
        XCTAssertEqual(try quaverProperty(daemon, QuaverProperty.waitingReason).stringValue, "none")
        XCTAssertEqual(daemon.status, "Playing")
        daemon.assertIntact(tracks: queue)
    }

    // MARK: Helpers

    private func quaverProperty(_ daemon: RunningDaemon, _ name: String) throws -> DBusValue {
        try daemon.get(name, ControlAPI.quaverInterface)
    }

    private func trackStatistics(_ daemon: RunningDaemon) throws -> [String: DBusValue] {
        (try daemon.call("GetTrackStatistics", on: ControlAPI.quaverInterface).first?.dictionaryValue ?? [:]).mapValues(\.unwrapped)
    }

    /// Every PropertiesChanged of org.quaver.Quaver1 (its changed values, unwrapped), in the order received;
    /// pumped on the test's loop.
    private func recordChanges(_ daemon: RunningDaemon) throws -> (SignalSubscription, () -> [[String: DBusValue]]) {
        var seen: [[String: DBusValue]] = []
        let rule = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.propertiesInterface, member: "PropertiesChanged")
        let subscription = try daemon.client.subscribe(rule: rule) { signal in
            guard signal.arguments.first?.stringValue == ControlAPI.quaverInterface else { return }
            seen.append((signal.arguments[1].dictionaryValue ?? [:]).mapValues(\.unwrapped))
        }
        EventLoop.main.run(until: { false }, timeout: 0.2)  // AddMatch and the owner lookup settle
        return (subscription, { seen })
    }

    private func reasons(_ changes: [[String: DBusValue]]) -> [String] {
        changes.compactMap { $0[QuaverProperty.waitingReason]?.stringValue }
    }

    private func kinds(_ changes: [[String: DBusValue]]) -> [String] {
        changes.compactMap { $0[QuaverProperty.lastErrorKind]?.stringValue }
    }

    /// Each BufferedRanges signalled, as (start, end) pairs in seconds; empty ones left out.
    private func ranges(_ changes: [[String: DBusValue]]) -> [[(start: Double, end: Double)]] {
        changes.compactMap { $0[QuaverProperty.bufferedRanges]?.arrayValue }.filter { !$0.isEmpty }.map { list in
            list.map { ($0.arrayValue?.first?.doubleValue ?? -1, $0.arrayValue?.last?.doubleValue ?? -1) }
        }
    }
}
