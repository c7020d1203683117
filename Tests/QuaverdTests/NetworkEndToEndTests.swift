import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// The real daemon playing https from a real nginx, opened with playerctl: tags from the stream, the
/// file kept in the daemon's XDG cache, the second play from disk (one 304), and an untrusted server
/// reported through LastError while the daemon goes on answering.
final class NetworkEndToEndTests: SongServerTestCase {
    func testAnHTTPSTrackPlaysWithItsTagsAndItsSecondPlayComesFromTheCache() throws {
        let daemon = try RunningDaemon(environment: ["SSL_CERT_FILE": server.certificate.path])
        let url = server.secureURL("song.mp3")
        try daemon.playerctl("open", url)
        daemon.waitUntil("Playing with the stream's title") {
            daemon.status == "Playing" && daemon.metadata["xesam:title"]?.stringValue == Fixtures.title
        }
        XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue, url)
        XCTAssertEqual(daemon.metadata["xesam:artist"]?.stringArrayValue, [Fixtures.artist])
        daemon.waitUntil("position advancing") { daemon.positionSeconds > 0.5 }
        let size = try FileManager.default.attributesOfItem(atPath: files.url.appendingPathComponent("song.mp3").path)[.size]
            as? Int
        let media = daemon.home.url.appendingPathComponent("cache/quaver/media")
        daemon.waitUntil("the whole file in the cache") {
            let data = (try? FileManager.default.contentsOfDirectory(atPath: media.path))?.filter { $0.hasSuffix(".data") }
            return data?.count == 1 && (try? FileManager.default.attributesOfItem(
                atPath: media.appendingPathComponent(data![0]).path)[.size] as? Int) == size
        }
        try daemon.playerctl("stop")
        XCTAssertEqual(server.accessLog.map(\.status), [200], "\(server.accessLog)")

        try daemon.playerctl("play")
        daemon.waitUntil("Playing again") { daemon.status == "Playing" && daemon.positionSeconds > 0.3 }
        XCTAssertTrue(eventually(timeout: 5) { self.server.accessLog.count == 2 }, "\(server.accessLog)")
        XCTAssertEqual(server.accessLog.last?.status, 304, "\(server.accessLog)")
        XCTAssertEqual(server.accessLog.last?.bodyBytes, 0)
    }

    func testAnUntrustedServerFailsTheTrackWithAClearErrorAndTheDaemonGoesOn() throws {
        let daemon = try RunningDaemon([try Media.fixtures().flac.path])
        try daemon.playerctl("open", server.secureURL("song.mp3"))
        daemon.waitUntil("LastError set") {
            ((try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue) ?? "").contains("certificate")
        }
        let error = try daemon.get("LastError", ControlAPI.quaverInterface).stringValue ?? ""
        XCTAssertTrue(error.contains("network: ") && error.contains(server.secureURL("song.mp3")), error)
        // An opened track that cannot play at all is taken out again: the queue is as it was.
        daemon.waitUntil("taken out again") { daemon.tracks == ["/org/quaver/Track/1"] }
        daemon.assertIntact(tracks: ["/org/quaver/Track/1"])
        XCTAssertTrue(server.accessLog.isEmpty, "\(server.accessLog)")
    }

    /// Garbage from a server (our hostile test server): each track fails with a clear error (log line and
    /// LastError) within the configured timeout (1 s, 1 retry), the daemon answers throughout, and the
    /// cache holds only the file's real bytes (byte i is i % 251; holes of a sparse file read as 0).
    func testAHostileServerFailsTracksClearlyAndTheDaemonGoesOn() throws {
        let hostile = try TestServer("hostile")
        let home = try RunningDaemon.home(settings: "[network]\nretries = 1\nconnect-timeout-seconds = 1\n")
        let daemon = try RunningDaemon([try Media.fixtures().flac.path], home: home)
        let cases = [("stalled-body", "timed out"), ("to-file", "file"), ("gzip-bomb", "Content-Encoding"),
                     ("redirect-chain/0", "redirect"), ("wrong-range", "Content-Range")]
        // Each failure is logged as it happens; LastError holds the latest, which may be an earlier URL
        // failing again as the queue goes on through the failing items. How long each took is printed; the bound
        // only tells a timeout that was not applied (the stalled body never ends) from one that was, ten times the
        // slowest case's normal: the stalled body took 4.3 s (load 15), 0.1 to 0.7 s the others, and 7.5 s at
        // load 18 and 19, past the former bound of 7 s.
        var seconds: [String] = []
        for (path, words) in cases {
            let url = hostile.url(path)
            let started = Date()
            try daemon.playerctl("open", url)
            daemon.waitUntil("the failure of \(path) logged", timeout: 60) { daemon.process.standardError.contains("cannot play \(url): ") }
            let line = daemon.process.standardError.split(separator: "\n").first { $0.contains("cannot play \(url): ") } ?? ""
            seconds.append("\(path) \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
            XCTAssertLessThan(Date().timeIntervalSince(started), 45, String(line))
            XCTAssertTrue(line.contains("network: \(url): ") && line.lowercased().contains(words.lowercased()), String(line))
            XCTAssertTrue(daemon.process.isRunning, daemon.process.standardError)
            XCTAssertEqual((try? daemon.getAll())?.isEmpty, false, "GetAll(Player) failed after \(path)")
        }
        print("hostile server, open to failure logged: \(seconds.joined(separator: ", "))")
        let lastError = try daemon.get("LastError", ControlAPI.quaverInterface).stringValue ?? ""
        XCTAssertTrue(lastError.contains("network: http://127.0.0.1:\(hostile.port)/"), lastError)
        let media = home.url.appendingPathComponent("cache/quaver/media")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: media.path))?.filter({ $0.hasSuffix(".data") }) ?? [] {
            let bytes = [UInt8](try Data(contentsOf: media.appendingPathComponent(name)))
            XCTAssertNil(bytes.indices.first { bytes[$0] != 0 && bytes[$0] != UInt8($0 % 251) }, "\(name) holds bytes not of the file")
        }
    }
}
