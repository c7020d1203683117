import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// Logins whose passwords hold quotes, `<>`, a backtick, a space, a raw `#` or `?`, and signed URLs
/// (`token`, `X-Amz-Signature`, `auth`): used to fetch, masked in everything the daemon publishes or logs.
final class MaskingTests: XCTestCase {
    /// Markers inside every secret below: none may reach a client, a signal, the CLI or the log.
    static let markers = ["Pw1", "Pw2", "Pw3", "Pw4", "Pw5", "Pw6", "Pw7", "T0KEN", "S1GNATURE", "SECRET", "RAWHASH"]

    func testHostileLoginsAndSignedURLsAreSentButNeverShown() throws {
        let www = try TemporaryDirectory(prefix: "quaverd-www")
        try FileManager.default.copyItem(at: try Media.fixtures().mp3, to: www.url.appendingPathComponent("song.mp3"))
        let server = try NginxServer(root: www.url)
        let closedPort = try NginxServer.freePort()
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try SecretsAndPrivacyTests.writeSettings("[network]\nretries = 0\n[log]\nlevel = \"debug\"\n", in: home)
        let bus = try PrivateBus()
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address, "type='signal'"],
                                       logDirectory: www.url, name: "dbus-monitor")
        defer { monitor.stop() }
        let daemon = try RunningDaemon(bus: bus, home: home)
        let signed = "http://hostile:\(NginxServer.hostilePassword)@127.0.0.1:\(server.port)/private/song.mp3"
            + "?token=T0KEN&X-Amz-Signature=S1GNATURE"
        let refused = "http://u:Pw6 Pw7@127.0.0.1:\(closedPort)/x.mp3?auth=AUTH'SECRET"

        try daemon.call("OpenUri", [.string(signed)])
        daemon.waitUntil("the signed track playing", timeout: 20) { daemon.status == "Playing" && daemon.positionSeconds > 0.2 }
        XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue,
                       "http://***@127.0.0.1:\(server.port)/private/song.mp3?token=***&X-Amz-Signature=***")
        XCTAssertTrue(server.accessLog.contains { $0.request.contains("/private/song.mp3") && [200, 206].contains($0.status) },
                      "the hostile password was sent and accepted: \(server.accessLog)")
        var replies = ""
        for uri in ["http://u:RAWHASH#x@127.0.0.1:\(closedPort)/a.mp3", "http://u:RAWHASH?x@127.0.0.1:\(closedPort)/a.mp3",
                    "http://u:RAWHASH'\"<x>@/a.mp3"] {
            do { try daemon.call("OpenUri", [.string(uri)]) } catch { replies += "\(error)\n" }
        }
        try daemon.call("AddTracks", [.stringArray([refused]), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        try daemon.call("GoTo", [.objectPath(try ObjectPath(daemon.tracks.last ?? ""))], on: ControlAPI.trackListInterface)
        var lastError = ""
        daemon.waitUntil("LastError for the refused connection", timeout: 30) {
            lastError = (try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue) ?? ""
            return lastError.contains(String(closedPort))
        }
        let published = try SecretsAndPrivacyTests.publishedText(of: daemon, trackCount: daemon.tracks.count)
        XCTAssertTrue(published.contains("?auth=***") && published.contains("token=***"), published)
        let status = try daemon.quaver("status", ["--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        daemon.process.send(SIGTERM)
        XCTAssertEqual(daemon.process.waitForExit(timeout: 15), 0)
        monitor.stop()
        let places = ["published": published, "replies": replies, "LastError": lastError, "status": status.stdout,
                      "signals": monitor.standardOutput, "log": daemon.process.standardError]
        for (place, text) in places {
            XCTAssertFalse(text.isEmpty, place)
            for marker in Self.markers { XCTAssertFalse(text.contains(marker), "\(marker) in \(place): \(text)") }
        }
        XCTAssertTrue(places["signals"]?.contains("X-Amz-Signature=***") == true, "the search must see the signals")
    }

    /// `quaver add` names the playlist entries it skips, with their logins and tokens masked.
    func testTheCLIMasksTheEntriesItSkips() throws {
        let music = try TemporaryDirectory(prefix: "masked-playlist")
        try FileManager.default.copyItem(at: try Media.fixtures().wav, to: music.url.appendingPathComponent("one.wav"))
        try "ftp://u:Pw1'Pw2@host/x.mp3\nfile://elsewhere/a.flac?sig=S1GNATURE\none.wav\n"
            .write(to: music.url.appendingPathComponent("list.m3u"), atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon()
        let add = try daemon.quaver("add", [music.path + "/list.m3u"])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stderr.contains("\"ftp://***@host/x.mp3\"") && add.stderr.contains("?sig=***"), add.stderr)
        for marker in Self.markers { XCTAssertFalse(add.stderr.contains(marker), add.stderr) }
        XCTAssertEqual(daemon.tracks.count, 1)
    }
}
