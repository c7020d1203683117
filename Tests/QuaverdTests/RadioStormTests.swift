import DBus
import Foundation
import TestSupport
import XCTest

/// An endless radio stream (our server on 127.0.0.1) still plays through playbin's souphttpsrc, whose teardown
/// with a request or a read under way killed the daemon on libsoup 3 (GStreamer 1.22: docs/platform.md,
/// "souphttpsrc stopped mid-request"). quaverd loads libsoup 2.4 before GStreamer, which then takes that one.
final class RadioStormTests: XCTestCase {
    /// The daemon's souphttpsrc runs on libsoup 2.4, and libsoup 3 is never loaded (fails without the fix:
    /// GStreamer loads libsoup 3 at the first http source).
    /// Before the stream, no libsoup at all: the first stream loads it (fails when it is loaded at start-up).
    func testARadioStreamPlaysThroughLibsoup2() throws {
        let radio = try TestServer("radio", arguments: [try Fixtures.shared().mp3.path])
        let daemon = try RunningDaemon()
        let atRest = try Self.loadedLibraries(of: daemon.process.pid)
        XCTAssertFalse(atRest.contains { $0.contains("libsoup") }, atRest.joined(separator: "\n"))
        try daemon.call("OpenUri", [.string(radio.url("stream"))])
        daemon.waitUntil("the stream playing", timeout: 30) { daemon.status == "Playing" && daemon.positionSeconds > 0.2 }
        let libraries = try Self.loadedLibraries(of: daemon.process.pid)
        XCTAssertTrue(libraries.contains { $0.contains("libsoup-2.4.so") }, libraries.joined(separator: "\n"))
        XCTAssertFalse(libraries.contains { $0.contains("libsoup-3.0.so") }, libraries.joined(separator: "\n"))
    }

    /// Where libsoup 2.4 cannot be had (here a libsoup 3 preloaded, as without libsoup2.4-1) the daemon says
    /// so on one line and plays the stream on libsoup 3.
    func testWithoutLibsoup2TheDaemonSaysSoAndStillPlaysTheStream() throws {
        let radio = try TestServer("radio", arguments: [try Fixtures.shared().mp3.path])
        let daemon = try RunningDaemon(environment: ["LD_PRELOAD": "libsoup-3.0.so.0"])
        try daemon.call("OpenUri", [.string(radio.url("stream"))])
        daemon.waitUntil("the stream playing", timeout: 30) { daemon.status == "Playing" && daemon.positionSeconds > 0.2 }
        // The line comes when the stream's URI first reaches GStreamer, on the engine's queue: PlaybackStatus may say
        // Playing before it is written (a full run read the log 0.3 s after the call and found none).
        let warnings = { daemon.process.standardError.split(separator: "\n").filter { $0.contains("libsoup 2.4 is missing") } }
        XCTAssertTrue(eventually(timeout: 10) { !warnings().isEmpty }, daemon.logTail)
        XCTAssertEqual(warnings().count, 1, daemon.logTail)
    }

    /// The storm that killed the daemon on libsoup 3 (radio_storm.py, beside the test servers, counts it; figures
    /// in docs/platform.md): OpenUri of the stream, Stop, Next and Play at random, the call after an OpenUri
    /// sent once the server has the source's request, so that it stops the source mid-request or mid-read. At
    /// that rate (one death in about 9 400 paced calls) 20 s of storm (1 900 to 3 300 calls here) often passes
    /// without the fix too: it failed in 1 of 3 runs on libsoup 3.
    func testAStormOfOpenStopNextPlayOnARadioStreamLeavesTheDaemonAnswering() throws {
        let radio = try TestServer("radio", arguments: [try Fixtures.shared().mp3.path])
        let daemon = try RunningDaemon()
        let end = Date().addingTimeInterval(20)
        var sent: [String] = []
        while Date() < end {
            let method = ["OpenUri", "Stop", "Next", "Play"].randomElement() ?? "Play"
            let path = "stream/\(sent.count)"
            let arguments: [DBusValue] = method == "OpenUri" ? [.string(radio.url(path))] : []
            _ = try? daemon.call(method, arguments)  // Next and Play may be refused: only the daemon's life counts
            sent.append(method)
            if method == "OpenUri" {  // the next call stops the source mid-request or mid-read, whatever the load
                _ = eventually(timeout: 5) { radio.requestLog.contains("/" + path) }
            }
            guard daemon.process.isRunning else {
                return XCTFail("quaverd died after \(sent.count) calls (last: \(sent.suffix(5))): \(daemon.logTail)")
            }
        }
        XCTAssertEqual((try? daemon.getAll())?.isEmpty, false, "GetAll(Player) failed after \(sent.count) calls")
        try daemon.call("OpenUri", [.string(radio.url("stream/last"))])
        daemon.waitUntil("the stream playing after the storm", timeout: 30) { daemon.status == "Playing" }
        print("radio storm: \(sent.count) calls in 20 s")
    }

    /// The shared objects mapped into process `pid`.
    static func loadedLibraries(of pid: Int32) throws -> [String] {
        // Read to the end: String(contentsOfFile:) stops after the first read of a /proc file (size 0).
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
            .filter { $0.contains(".so") }.sorted()
    }
}
