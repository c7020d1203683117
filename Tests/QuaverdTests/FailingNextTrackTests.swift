import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// A looped queue of a short sound and files that look like sound but fail once played: playbin is handed
/// a failing file at every about-to-finish (a short file drains at once), and the file's error reaches the
/// loop, which stops the pipeline, while playbin is still switching to it on its streaming thread. That
/// deadlocked quaverd (no answer any more) or aborted it inside playbin, within seconds; it must answer
/// every call, and be the same process, as long as it goes on.
final class FailingNextTrackTests: XCTestCase {
    func testSwitchingIntoFailingFilesAgainAndAgainNeitherHangsNorCrashes() throws {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../demo")
            .standardized
        let folder = try TemporaryDirectory(prefix: "failing-next")
        let blip = folder.url.appendingPathComponent("blip.wav")
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", blip.path, "synth", "0.4", "sine", "440", "vol", "0.3"])
        // The first 4 KB of a real file, or its first 600 bytes over noise: both pass the open check and fail
        // to decode.
        var generator = SeededGenerator(seed: 13)
        let noise = Data((0..<60_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        func broken(_ name: String, garbled: Bool) throws -> URL {
            let bytes = try Data(contentsOf: demo.appendingPathComponent(name))
            let url = folder.url.appendingPathComponent((garbled ? "garbled " : "cut ") + name)
            try (garbled ? bytes.prefix(600) + noise : bytes.prefix(4096)).write(to: url)
            return url
        }
        let queue = [blip, try broken("01 Morning Arpeggio.flac", garbled: false), blip,
                     try broken("02 Minor Walk.mp3", garbled: true), try broken("03 Evening Fall.ogg", garbled: false),
                     try broken("01 Morning Arpeggio.flac", garbled: true)]
        let daemon = try RunningDaemon(queue.map(\.path))
        try daemon.set("LoopStatus", .string("Playlist"))
        try daemon.call("Play")
        let end = Date(timeIntervalSinceNow: 20)
        while Date() < end {
            do {
                _ = try daemon.get("PlaybackStatus")  // waits 10 s at most: a deadlocked daemon fails here
            } catch {
                return XCTFail("no answer (\(error)); running: \(daemon.process.isRunning)\n\(daemon.logTail)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(daemon.process.isRunning, daemon.logTail)
        let failures = daemon.process.standardError.components(separatedBy: "cannot play").count - 1
        XCTAssertGreaterThan(failures, 10, "the files were played and failed again and again: \(daemon.logTail)")
    }
}
