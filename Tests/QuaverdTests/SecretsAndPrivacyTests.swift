import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// Credentials in URLs are used to fetch and never shown; what the daemon keeps is private to its user.
final class SecretsAndPrivacyTests: XCTestCase {
    /// The password of nginx's `/private/` (user `quaver`).
    static let password = "secret"

    /// http and https tracks behind HTTP Basic play (so the credentials were sent), and a refused
    /// connection fails with a LastError; then every property on every interface, every queue reply, every
    /// signal the daemon sent and every line it logged is searched for the password.
    func testCredentialsAreSentButNeverPublishedNorLogged() throws {
        let www = try TemporaryDirectory(prefix: "quaverd-www")
        try FileManager.default.copyItem(at: try Media.fixtures().mp3, to: www.url.appendingPathComponent("song.mp3"))
        let server = try NginxServer(root: www.url)
        let closedPort = try NginxServer.freePort()
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        // At debug level the daemon logs the most, all of which is searched for the password below.
        try Self.writeSettings("[network]\nretries = 0\n[log]\nlevel = \"debug\"\n", in: home)
        let bus = try PrivateBus()
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address, "type='signal'"],
                                       logDirectory: www.url, name: "dbus-monitor")
        defer { monitor.stop() }
        let daemon = try RunningDaemon(bus: bus, home: home, environment: ["SSL_CERT_FILE": server.certificate.path])
        let http = "http://quaver:\(Self.password)@127.0.0.1:\(server.port)/private/song.mp3"
        let https = "https://quaver:\(Self.password)@127.0.0.1:\(server.tlsPort)/private/song.mp3"
        let refused = "http://quaver:\(Self.password)@127.0.0.1:\(closedPort)/song.mp3"

        try daemon.call("OpenUri", [.string(http)])
        daemon.waitUntil("the http track playing with its tags", timeout: 20) {
            daemon.status == "Playing" && daemon.metadata["xesam:title"]?.stringValue == Fixtures.title
        }
        XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue, "http://***@127.0.0.1:\(server.port)/private/song.mp3")
        try daemon.call("AddTracks", [.stringArray([https, refused]), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        try daemon.call("Next")
        daemon.waitUntil("the https track playing", timeout: 20) {
            daemon.status == "Playing" && daemon.metadata["xesam:url"]?.stringValue?.hasPrefix("https://***@") == true
                && daemon.positionSeconds > 0.2
        }
        try daemon.call("Next")
        var lastError = ""
        daemon.waitUntil("LastError for the refused connection", timeout: 30) {
            lastError = (try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue) ?? ""
            return !lastError.isEmpty
        }
        XCTAssertTrue(lastError.contains("http://***@127.0.0.1:\(closedPort)/song.mp3"), lastError)
        let fetched = server.accessLog.filter { $0.request.contains("/private/") }
        // A 304 is a revalidation of a file prefetched while the one before played: also authorised.
        XCTAssertTrue(fetched.allSatisfy { [200, 206, 304].contains($0.status) }
                      && Set(fetched.map(\.scheme)) == ["http", "https"],
                      "both tracks fetched with their credentials: \(server.accessLog)")

        let published = try Self.publishedText(of: daemon, trackCount: 3)
        XCTAssertTrue(published.contains("***@127.0.0.1:\(server.tlsPort)"), "the search below must see the URLs")
        XCTAssertFalse(published.contains(Self.password), published)

        daemon.process.send(SIGTERM)
        XCTAssertEqual(daemon.process.waitForExit(timeout: 15), 0)
        let log = daemon.process.standardError
        XCTAssertTrue(log.contains("***@127.0.0.1:\(closedPort)"), "the failure is logged, masked: \(log)")
        XCTAssertFalse(log.contains(Self.password), log)
        monitor.stop()
        let signals = monitor.standardOutput
        XCTAssertTrue(signals.contains("PropertiesChanged") && signals.contains("***@127.0.0.1"), signals)
        XCTAssertFalse(signals.contains(Self.password), "a signal carried the password")

        let state = home.url.appendingPathComponent("state/quaver/state.json")
        XCTAssertTrue(try String(contentsOf: state, encoding: .utf8).contains("quaver:\(Self.password)@"),
                      "the state file keeps what the next start needs to fetch")
        for base in ["cache", "state"] { try assertPrivate(home.url.appendingPathComponent(base)) }
    }

    /// A session that plays a local file with embedded art, on quaver folders an older version left
    /// readable by all: the daemon tightens them once (and says so) and everything it writes is 0700/0600.
    func testEverythingTheDaemonKeepsIsPrivateToItsUser() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        for folder in ["cache/quaver", "state/quaver"] {
            try FileManager.default.createDirectory(at: home.url.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        let daemon = try RunningDaemon(["--play", try Media.fixtures().flac.path], home: home)
        daemon.waitUntil("playing with its embedded cover") {
            daemon.status == "Playing" && daemon.metadata["mpris:artUrl"]?.stringValue?.contains("/cache/quaver/art/") == true
        }
        let art = try FileManager.default.contentsOfDirectory(atPath: daemon.artDirectory.path)
        XCTAssertEqual(art.count, 1, "\(art)")
        daemon.process.send(SIGTERM)
        XCTAssertEqual(daemon.process.waitForExit(timeout: 15), 0)
        for base in ["cache", "state"] {
            try assertPrivate(home.url.appendingPathComponent(base).appendingPathComponent("quaver"))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.path + "/state/quaver/state.json"))
        let log = daemon.process.standardError
        for base in ["cache", "state"] {
            XCTAssertTrue(log.contains("made \(home.path)/\(base)/quaver private (0700; it was 755)"), log)
        }
    }

    // MARK: Helpers

    static func writeSettings(_ text: String, in home: TemporaryDirectory) throws {
        let folder = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    /// Everything a client can read: GetAll on every interface, the queue in all three forms, Metadata.
    static func publishedText(of daemon: RunningDaemon, trackCount: Int) throws -> String {
        var text = ""
        for interface in [ControlAPI.rootInterface, ControlAPI.playerInterface, ControlAPI.trackListInterface, ControlAPI.quaverInterface] {
            text += "\(try daemon.getAll(interface))\n"
        }
        text += "\(try daemon.call("GetQueue", on: ControlAPI.quaverInterface))\n"
        text += "\(try daemon.call("GetQueueRange", [.uint32(0), .uint32(10)], on: ControlAPI.quaverInterface))\n"
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        XCTAssertEqual(paths.count, trackCount)
        text += "\(try daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface))\n"
        return text
    }
}

/// Every folder under `root` (and `root` itself) is 0700 and every file 0600.
func assertPrivate(_ root: URL, file: StaticString = #filePath, line: UInt = #line) throws {
    var checked = 0
    var paths = [root.path]
    if let enumerator = FileManager.default.enumerator(atPath: root.path) {
        while let relative = enumerator.nextObject() as? String { paths.append(root.path + "/" + relative) }
    }
    for path in paths {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, path, file: file, line: line)
        let mode = info.st_mode & 0o777
        let expected: mode_t = info.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
        XCTAssertEqual(mode, expected, "\(path) is \(String(mode, radix: 8))", file: file, line: line)
        checked += 1
    }
    XCTAssertGreaterThan(checked, 1, "nothing under \(root.path)", file: file, line: line)
}
