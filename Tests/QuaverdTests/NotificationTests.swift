import Foundation
import TestSupport
import XCTest

/// `[notifications]` in the real daemon, with a fake notification server (python3-dbus) on its private bus.
final class NotificationTests: XCTestCase {
    /// Two 1.5 s tones tagged with markup in artist and album, a cover.png beside them.
    private func tracks(in folder: TemporaryDirectory) throws -> [URL] {
        let cover = folder.url.appendingPathComponent("cover.png")
        try FileManager.default.copyItem(at: try Media.fixtures().cover, to: cover)
        return try ["First", "Second"].map { title in
            let url = folder.url.appendingPathComponent("\(title).flac")
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", url.path, "synth", "1.5", "sine", "440", "vol", "0.2"])
            try Fixtures.run("metaflac", ["--set-tag=TITLE=\(title) <i>", "--set-tag=ARTIST=Tom & Jerry <b>",
                                          "--set-tag=ALBUM=<a href=\"x\">Hits</a>", url.path])
            return url
        }
    }

    /// Plays both tracks through (a gapless switch between them) with `settings`, the server running or not
    /// (with its default capabilities, or those given, comma-separated).
    private func play(settings: String, server running: Bool, capabilities: String? = nil) throws
        -> (calls: [[String: Any]], daemon: RunningDaemon, folder: TemporaryDirectory) {
        let folder = try TemporaryDirectory(prefix: "notify-music")
        let files = try tracks(in: folder)
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write(settings + "[playback]\nresume-on-start = false\n", home: home)
        let bus = try PrivateBus()
        var server: ChildProcess?
        if running {
            let started = try ChildProcess("/usr/bin/python3", ["-c", FakeNotificationServer.script, "0"] + [capabilities].compactMap { $0 },
                                           environment: bus.environment, logDirectory: home.url)
            XCTAssertTrue(eventually(timeout: 20) { started.standardOutput.contains("ready") }, started.standardError)
            server = started
        }
        defer { server?.stop() }
        let daemon = try RunningDaemon(files.map(\.path), bus: bus, home: home, options: ["--output", "fakesink sync=true", "--play"])
        daemon.waitUntil("the second track playing", timeout: 20) { daemon.currentTrack == daemon.tracks.last && daemon.status == "Playing" }
        daemon.waitUntil("both played", timeout: 20) { daemon.status == "Stopped" }
        usleep(500_000)  // a notification on its way would arrive by now
        return (FakeNotificationServer.calls(in: server?.standardOutput ?? ""), daemon, folder)
    }

    func testEnabledShowsEachTrackOnceReplacingTheLastWithEscapedMarkupAndTheCover() throws {
        let (calls, daemon, folder) = try play(settings: "[notifications]\nenabled = true\ntimeout-seconds = 3\n", server: true)
        XCTAssertEqual(calls.count, 2, "\(calls)\n\(daemon.process.standardError)")
        guard calls.count == 2 else { return }
        XCTAssertEqual(calls.map { $0["summary"] as? String }, ["First <i>", "Second <i>"], "the summary is plain text")
        XCTAssertEqual(calls[0]["body"] as? String, "Tom &amp; Jerry &lt;b&gt; — &lt;a href=&quot;x&quot;&gt;Hits&lt;/a&gt;",
                       "escaped for a server with body-markup")
        XCTAssertEqual(calls[0]["replaces"] as? Int, 0)
        XCTAssertEqual(calls[1]["replaces"] as? Int, calls[0]["id"] as? Int)
        XCTAssertEqual(calls[0]["app"] as? String, "Quaver")
        XCTAssertEqual(calls[0]["timeout"] as? Int, 3000)
        let hints = calls[1]["hints"] as? [String: Any]
        XCTAssertEqual(hints?["image-path"] as? String, folder.url.appendingPathComponent("cover.png").absoluteString)
        XCTAssertEqual(hints?["urgency"] as? Int, 0)
        XCTAssertEqual(hints?["transient"] as? Int, 1)
    }

    /// A server without `body-markup` shows the body as it is: escaped, it would show `&amp;`.
    func testAServerWithoutBodyMarkupGetsThePlainBody() throws {
        let (calls, daemon, _) = try play(settings: "[notifications]\nenabled = true\n", server: true, capabilities: "body")
        XCTAssertEqual(calls.count, 2, "\(calls)\n\(daemon.process.standardError)")
        XCTAssertEqual(calls.first?["body"] as? String, "Tom & Jerry <b> — <a href=\"x\">Hits</a>")
        XCTAssertEqual(calls.first?["summary"] as? String, "First <i>")
    }

    func testDisabledByDefaultShowsNothing() throws {
        let (calls, daemon, _) = try play(settings: "", server: true)
        XCTAssertEqual(calls.count, 0, "\(calls)")
        XCTAssertTrue(daemon.process.isRunning)
    }

    func testWithoutAServerTheDaemonPlaysOnAndSaysSoOnceAtDebug() throws {
        let (_, daemon, _) = try play(settings: "[notifications]\nenabled = true\n[log]\nlevel = \"debug\"\n", server: false)
        XCTAssertTrue(daemon.process.isRunning, daemon.process.standardError)
        XCTAssertEqual(daemon.status, "Stopped")
        let said = daemon.process.standardError.components(separatedBy: "no track notification shown").count - 1
        XCTAssertEqual(said, 1, daemon.process.standardError)
    }

    /// A session saved while playing and resumed playing (`resume-paused = false`) announces its track.
    func testATrackResumedAtStartIsAnnounced() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[notifications]\nenabled = true\n[playback]\nresume-paused = false\n", home: home)
        let bus = try PrivateBus()
        let first = try RunningDaemon([try Media.longTone().path], bus: bus, home: home,
                                      options: ["--output", "fakesink sync=true", "--play"])
        first.waitUntil("playing", { first.status == "Playing" })
        first.process.send(SIGTERM)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0, first.process.standardError)
        let server = try ChildProcess("/usr/bin/python3", ["-c", FakeNotificationServer.script],
                                      environment: bus.environment, logDirectory: home.url)
        defer { server.stop() }
        XCTAssertTrue(eventually(timeout: 20) { server.standardOutput.contains("ready") }, server.standardError)
        let second = try RunningDaemon(bus: bus, home: home)
        second.waitUntil("playing again", { second.status == "Playing" })
        XCTAssertTrue(eventually(timeout: 5) { FakeNotificationServer.calls(in: server.standardOutput).count == 1 },
                      server.standardOutput)
        XCTAssertEqual(FakeNotificationServer.calls(in: server.standardOutput).first?["summary"] as? String, "long tone")
    }
}
