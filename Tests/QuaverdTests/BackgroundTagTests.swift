import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// Queued files show their tags and lengths before they are played: the daemon reads them in the background.
final class BackgroundTagTests: XCTestCase {
    /// FLAC files of 2…6 s titled "Background 1"…"Background 5", named differently from their titles.
    private func makeTaggedFiles(in folder: TemporaryDirectory) throws -> [URL] {
        try (1...5).map { number in
            let wav = folder.url.appendingPathComponent("tone-\(number).wav")
            let flac = folder.url.appendingPathComponent("file-\(number).flac")
            try Fixtures.run("sox", ["-q", "-n", "-r", "22050", "-c", "1", "-b", "16", wav.path, "synth", "\(number + 1)", "sine", "440"])
            try Fixtures.run("flac", ["-s", "-f", "-T", "TITLE=Background \(number)", "-T", "ARTIST=Scanner",
                                      "-o", flac.path, wav.path])
            return flac
        }
    }

    func testQueuedTracksGetTitlesAndLengthsWithoutPlaying() throws {
        let folder = try TemporaryDirectory(prefix: "tagged")
        let files = try makeTaggedFiles(in: folder)
        let daemon = try RunningDaemon(files.map(\.path))
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        XCTAssertEqual(paths.count, 5)
        var metadata: [[String: DBusValue]] = []
        daemon.waitUntil("every title read", timeout: 20) {
            let reply = try? daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
            metadata = (reply?.first?.arrayValue ?? []).map { ($0.dictionaryValue ?? [:]).mapValues(\.unwrapped) }
            return metadata.count == 5 && metadata.allSatisfy { $0["mpris:length"] != nil }
        }
        for (index, track) in metadata.enumerated() {
            XCTAssertEqual(track["xesam:title"]?.stringValue, "Background \(index + 1)")
            XCTAssertEqual(track["xesam:artist"]?.stringArrayValue, ["Scanner"])
            XCTAssertEqual(Double(track["mpris:length"]?.int64Value ?? 0) / 1_000_000, Double(index + 2), accuracy: 0.05)
        }
        XCTAssertEqual(daemon.status, "Stopped", "nothing was played")
    }

    /// Tags read in the background are kept in the state file: restored tracks show them at once.
    func testReadTagsAreRestoredWithTheQueue() throws {
        let folder = try TemporaryDirectory(prefix: "tagged")
        let files = try makeTaggedFiles(in: folder)
        let first = try RunningDaemon(files.map(\.path))
        let last = try XCTUnwrap(first.tracks.last.flatMap { try? ObjectPath($0) })
        first.waitUntil("the last title read", timeout: 20) {
            let reply = try? first.call("GetTracksMetadata", [.objectPathArray([last])], on: ControlAPI.trackListInterface)
            return reply?.first?.arrayValue?.first?.dictionaryValue?["xesam:title"]?.unwrapped.stringValue == "Background 5"
        }
        first.process.send(SIGTERM)
        XCTAssertEqual(first.process.waitForExit(timeout: 10), 0)
        for file in files { try FileManager.default.removeItem(at: file) }  // nothing left to read: the titles come from the file

        let second = try RunningDaemon(bus: first.bus, home: first.home)
        let paths = second.tracks.compactMap { try? ObjectPath($0) }
        let reply = try second.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
        let titles = (reply.first?.arrayValue ?? []).map { $0.dictionaryValue?["xesam:title"]?.unwrapped.stringValue }
        XCTAssertEqual(titles, (1...5).map { "Background \($0)" })
    }
}
