import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// GStreamer (`gst_init` and its plugin registry, and the pbutils, app, audio and base libraries loaded with it) and
/// playbin with its sink are made by the first load, not at start-up: a daemon that has loaded nothing holds neither
/// (docs/reliability.md, "Memory at rest").
final class GStreamerLoadingTests: XCTestCase {
    /// Fails when start-up builds playbin (its plugin, libgstplayback, is then mapped at rest) or runs `gst_init`
    /// (which writes the registry GST_REGISTRY names when there is none) for SupportedMimeTypes or the equaliser.
    func testGStreamerStartsWithTheFirstLoadOnly() throws {
        // Nothing restored: a restored track is loaded at start.
        let home = try RunningDaemon.home(settings: "[playback]\nresume-on-start = false\n")
        try keepFeatures(home: home)
        let registry = home.url.appendingPathComponent("registry-second-run.bin")
        let daemon = try RunningDaemon(home: home, environment: ["GST_REGISTRY": registry.path])
        let root = try daemon.getAll(ControlAPI.rootInterface)  // as every shell does at start-up
        XCTAssertTrue(root["SupportedMimeTypes"]?.stringArrayValue?.contains("audio/x-flac") == true, "\(root)")
        XCTAssertNotNil(try daemon.getAll(ControlAPI.quaverInterface)["Equalizer"], "the equaliser, told from what was kept")
        let atRest = try RadioStormTests.loadedLibraries(of: daemon.process.pid)
        XCTAssertFalse(atRest.contains { $0.contains("/gstreamer-1.0/") }, atRest.joined(separator: "\n"))
        // pbutils, app, audio and base are loaded with gst_init, not linked (CGStreamerLibraries), nor what they bring.
        let helpers = ["libgstpbutils-1.0", "libgstapp-1.0", "libgstaudio-1.0", "libgstbase-1.0", "libgstvideo-1.0"]
        XCTAssertFalse(atRest.contains { library in helpers.contains { library.contains($0) } }, atRest.joined(separator: "\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: registry.path), "gst_init ran at start-up")

        try daemon.call("OpenUri", [.string(Media.uri(try Media.longTone()))])
        daemon.waitUntil("playing", timeout: 60) { daemon.status == "Playing" && daemon.positionSeconds > 0.2 }
        let playing = try RadioStormTests.loadedLibraries(of: daemon.process.pid)
        XCTAssertTrue(playing.contains { $0.hasSuffix("/libgstplayback.so") }, playing.joined(separator: "\n"))
        XCTAssertTrue(helpers.allSatisfy { helper in playing.contains { $0.contains(helper) } }, playing.joined(separator: "\n"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: registry.path), "gst_init ran for the load")
    }

    /// A sink description GStreamer cannot build stopped the daemon at start ("cannot start"); now the daemon runs
    /// on, and each load fails with the reason, which the log gives once.
    func testASinkThatCannotBeBuiltFailsTheLoadAndTheDaemonRunsOn() throws {
        let daemon = try RunningDaemon(options: ["--output", "no-such-sink-element"])
        let tone = Media.uri(try Media.longTone())
        for attempt in 1...2 {
            try daemon.call("OpenUri", [.string(tone)])
            daemon.waitUntil("load \(attempt) refused", timeout: 30) {
                daemon.process.standardError.components(separatedBy: "cannot play").count - 1 == attempt
            }
        }
        XCTAssertEqual(daemon.status, "Stopped")
        XCTAssertEqual(try daemon.get("Identity", ControlAPI.rootInterface).stringValue, "Quaver")
        let log = daemon.process.standardError
        XCTAssertEqual(log.components(separatedBy: "nothing plays until").count - 1, 1, log)
        XCTAssertTrue(log.contains("the sound output \"no-such-sink-element\" cannot be built"), log)
    }

    /// pulsesink with no sound server to reach: the first load says so, as start-up did, and plays silently.
    func testAnOutputThatCannotOpenIsReplacedAtTheFirstLoad() throws {
        let home = try TemporaryDirectory(prefix: "gstreamer-no-server-home")
        let daemon = try RunningDaemon(home: home, options: ["--output", "pulsesink"],
                                       environment: ["PULSE_SERVER": "unix:" + home.url.appendingPathComponent("no-server").path])
        XCTAssertEqual(try daemon.get("Identity", ControlAPI.rootInterface).stringValue, "Quaver")
        XCTAssertFalse(daemon.process.standardError.contains("cannot open its output"), daemon.process.standardError)
        try daemon.call("OpenUri", [.string(Media.uri(try Media.longTone()))])
        daemon.waitUntil("playing silently", timeout: 60) { daemon.status == "Playing" && daemon.positionSeconds > 0.5 }
        XCTAssertTrue(daemon.process.standardError.contains(
            "no sound server reachable: \"pulsesink\" cannot open its output; playing silently into \"fakesink sync=true\""),
                      daemon.process.standardError)
    }

    /// SupportedMimeTypes comes from the kept file only when the same GStreamer version wrote it and every line is a
    /// media type; otherwise the registry answers and the file is written again.
    func testWhatWasKeptAnswersOnlyForTheGStreamerThatKeptIt() throws {
        let home = try TemporaryDirectory(prefix: "gstreamer-kept-home")
        let kept = home.url.appendingPathComponent("cache/quaver/gstreamer-features")
        let first = try RunningDaemon(home: home)  // nothing kept: the registry answers at start, and is kept
        first.waitUntil("what GStreamer offers kept") { FileManager.default.fileExists(atPath: kept.path) }
        first.process.stop()
        let header = try String(contentsOf: kept, encoding: .utf8).split(separator: "\n").prefix(2).joined(separator: "\n")
        XCTAssertTrue(header.hasPrefix("gstreamer 1."), header)
        for (written, fromFile) in [(header, true), ("gstreamer 0.0.0\nequalizer yes", false)] {
            try (written + "\naudio/x-quaver-kept\n").write(to: kept, atomically: true, encoding: .utf8)
            XCTAssertEqual(try supportedMimeTypes(home: home).contains("audio/x-quaver-kept"), fromFile, written)
        }
        try (header + "\naudio/x-flac\u{1b}[31m\n").write(to: kept, atomically: true, encoding: .utf8)
        XCTAssertTrue(try supportedMimeTypes(home: home).contains("audio/x-flac"), "the registry's answer")
        XCTAssertFalse(try String(contentsOf: kept, encoding: .utf8).contains("\u{1b}"), "written again")
    }

    private func supportedMimeTypes(home: TemporaryDirectory) throws -> [String] {
        let daemon = try RunningDaemon(home: home)
        defer { daemon.process.stop() }
        return try daemon.get("SupportedMimeTypes", ControlAPI.rootInterface).stringArrayValue ?? []
    }

    /// A first run in `home`: with nothing kept it reads the registry at start, and its load keeps what GStreamer offers.
    private func keepFeatures(home: TemporaryDirectory) throws {
        let first = try RunningDaemon(home: home)
        try first.call("OpenUri", [.string(Media.uri(try Media.longTone()))])
        first.waitUntil("playing", timeout: 60) { first.status == "Playing" }
        let kept = home.url.appendingPathComponent("cache/quaver/gstreamer-features")
        first.waitUntil("what GStreamer offers kept") { FileManager.default.fileExists(atPath: kept.path) }
        first.process.stop()
    }
}
