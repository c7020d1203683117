import Foundation
import ListeningHistory
import Logging
import Scrobbling
import TestSupport
import XCTest

/// The sender against a fake ListenBrainz of ours on 127.0.0.1 (test_servers.py): the payloads, what is never sent,
/// an outage replayed in order after a restart, a wrong token, a rate limit, a server that hangs or loses an answer.
final class ListenBrainzSenderTests: XCTestCase {
    private static let token = "0123-secret-token"
    private var server: TestServer!
    private var folder: TemporaryDirectory!
    private var lines: LogLines!
    private var historyPath: String { folder.path + "/history.db" }
    private var tokenPath: String { folder.path + "/token" }

    override func setUpWithError() throws {
        server = try TestServer("listenbrainz", arguments: [Self.token])
        folder = try TemporaryDirectory(prefix: "listenbrainz")
        lines = LogLines()
        try writeToken(Self.token)
    }

    private func writeToken(_ token: String) throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: tokenPath, contents: Data((token + "\n").utf8),
                                                     attributes: [.posixPermissions: 0o600]))
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    }

    private func behave(_ text: String) throws {
        try text.write(toFile: server.folder.path + "/requests.log.behaviour", atomically: true, encoding: .utf8)
    }

    private func sender(timeout: Double = 5) -> ListenBrainzSender {
        var options = ListenBrainzSender.Options(url: server.url(""), token: .file(tokenPath), timeoutSeconds: timeout, proxy: nil)
        options.firstWait = 0.3
        let lines = lines!
        return ListenBrainzSender(options: options, historyPath: historyPath,
                                  log: Logger(label: "test") { _ in LogLines.Handler(lines: lines) })
    }

    private func listen(_ time: Int64, title: String? = "Title", artist: String? = "Artist", seconds: Int? = 200) -> Listen {
        Listen(listenedAt: time, uri: "file:///m/\(time).flac", artist: artist, title: title, album: "Album",
               durationSeconds: seconds, trackNumber: 4)
    }

    /// The requests the server logged, as JSON objects.
    private var requests: [[String: Any]] {
        server.requestLog.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func listenedAt(_ request: [String: Any]) -> [Int64] {
        (request["listens"] as? [[String: Any]] ?? []).compactMap { ($0["listened_at"] as? NSNumber)?.int64Value }
    }

    private func waitingCount() throws -> Int { try HistoryDatabase(path: historyPath).waitingCount() }

    func testPayloadsAndWhatIsNeverSent() throws {
        let database = try HistoryDatabase(path: historyPath)
        let sender = sender()
        sender.playingNow(listen(1))
        sender.playingNow(listen(2, title: nil))
        var tagged = listen(30)
        tagged.musicBrainz = MusicBrainzTags(recording: "b1a9c0e9-d987-4042-ae91-78d6a3267d69", release: "", artist: "a74b1b7f")
        for item in [listen(10, title: nil, artist: nil, seconds: nil), listen(20, seconds: 20), tagged] {
            try database.record(.listen(item))
        }
        let recorded = Date().timeIntervalSince1970
        sender.listenRecorded()
        XCTAssertTrue(eventually(timeout: 10) { self.requests.count == 2 && (try? self.waitingCount()) == 0 })
        let received = requests.last?["time"] as? Double ?? 0
        print(String(format: "listen recorded to POST received: %.1f ms", (received - recorded) * 1000))
        XCTAssertEqual(requests.map { $0["type"] as? String }, ["playing_now", "single"])
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [200, 200])
        let sent = try XCTUnwrap((requests[1]["listens"] as? [[String: Any]])?.first)
        XCTAssertEqual((sent["listened_at"] as? NSNumber)?.int64Value, 30)
        let metadata = try XCTUnwrap(sent["track_metadata"] as? [String: Any])
        XCTAssertEqual(metadata["artist_name"] as? String, "Artist")
        XCTAssertEqual(metadata["track_name"] as? String, "Title")
        XCTAssertEqual(metadata["release_name"] as? String, "Album")
        let info = try XCTUnwrap(metadata["additional_info"] as? [String: Any])
        XCTAssertEqual(info["submission_client"] as? String, "Quaver")
        XCTAssertEqual(info["duration_ms"] as? Int, 200_000)
        XCTAssertEqual(info["tracknumber"] as? Int, 4)
        XCTAssertEqual(info["recording_mbid"] as? String, "b1a9c0e9-d987-4042-ae91-78d6a3267d69")
        XCTAssertNil(info["release_mbid"], "ids not tagged are left out")
        XCTAssertEqual(info["artist_mbids"] as? [String], ["a74b1b7f"])
        XCTAssertNil((requests[0]["listens"] as? [[String: Any]])?.first?["listened_at"], "playing_now has no time")
        XCTAssertFalse(lines.all.joined().contains(Self.token), "the token is never logged")
    }

    func testAnHourOfListensMadeOfflineGoOutInOrderOnceAfterARestart() throws {
        try behave("down")
        let hour = (0..<15).map { listen(1_700_000_000 + Int64($0) * 240) }
        do {
            let database = try HistoryDatabase(path: historyPath)
            let offline = sender()
            for item in hour {
                try database.record(.listen(item))
                offline.listenRecorded()
            }
            XCTAssertTrue(eventually(timeout: 10) { self.requests.count >= 2 }, "it keeps trying, with back-off")
            offline.sync {}
        }
        XCTAssertEqual(try waitingCount(), 15, "nothing lost while the server was down")
        XCTAssertTrue(requests.allSatisfy { $0["status"] as? Int == 503 })
        let failedAttempts = requests.count

        try behave("ok")
        let restarted = sender()
        restarted.start()
        XCTAssertTrue(eventually(timeout: 10) { (try? self.waitingCount()) == 0 })
        let accepted = requests.dropFirst(failedAttempts).filter { $0["status"] as? Int == 200 }
        XCTAssertEqual(accepted.map { $0["type"] as? String }, ["import"])
        XCTAssertEqual(accepted.flatMap(listenedAt), hour.map(\.listenedAt), "in order, each once")
        XCTAssertTrue(lines.all.contains { $0.contains("trying again") }, lines.all.joined(separator: "\n"))
    }

    func testAWrongTokenIsOneLogLineAndTheListensWait() throws {
        try writeToken("wrong")
        let database = try HistoryDatabase(path: historyPath)
        let sender = sender()
        for time in [100, 200, 300] as [Int64] {
            try database.record(.listen(listen(time)))
            sender.listenRecorded()
            sender.sync {}
        }
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [401, 401, 401])
        XCTAssertEqual(lines.all.filter { $0.contains("401") }.count, 1, lines.all.joined(separator: "\n"))
        XCTAssertEqual(try waitingCount(), 3)

        try writeToken(Self.token)
        try database.record(.listen(listen(400)))
        sender.listenRecorded()
        XCTAssertTrue(eventually(timeout: 10) { (try? self.waitingCount()) == 0 })
        XCTAssertEqual(requests.last.map(listenedAt), [100, 200, 300, 400])
    }

    func testARateLimitIsWaitedOutAsTheServerSays() throws {
        try behave("429 2")
        let database = try HistoryDatabase(path: historyPath)
        let sender = sender()
        try database.record(.listen(listen(100)))
        sender.listenRecorded()
        XCTAssertTrue(eventually(timeout: 10) { self.requests.count == 1 })
        try behave("ok")
        XCTAssertTrue(eventually(timeout: 10) { (try? self.waitingCount()) == 0 })
        let times = requests.compactMap { $0["time"] as? Double }
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [429, 200])
        XCTAssertGreaterThanOrEqual(times[1] - times[0], 1.9, "X-RateLimit-Reset-In: 2, not the 0.3 s back-off")
    }

    func testAHangingServerCostsOneTimeoutAndALostAnswerIsSentAgainUnderTheSameTimestamp() throws {
        try behave("lose-answer")
        let database = try HistoryDatabase(path: historyPath)
        let sender = sender(timeout: 1)
        try database.record(.listen(listen(500)))
        let start = Date()
        sender.listenRecorded()
        sender.sync {}
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "bounded by the timeout")
        XCTAssertTrue(eventually(timeout: 10) { (try? self.waitingCount()) == 0 })
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [200, 200], "the first answer was lost")
        XCTAssertEqual(requests.map(listenedAt), [[500], [500]], "the same listen, which the server keeps once")
        sender.sync {}
        XCTAssertEqual(requests.count, 2, "and never again")
    }
}

/// Log lines a test can read (swift-log handler).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.lock.withLock { lines.lines.append("\(event.level): \(event.message)") }
        }
    }
}
