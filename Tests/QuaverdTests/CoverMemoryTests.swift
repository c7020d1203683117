import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// A large embedded cover is given back once its track is gone: the queue kept the last cover reported and
/// MPRIS the last Metadata built (with the track's cover bytes) after Clear or Next, 15 MB resident for good.
final class CoverMemoryTests: XCTestCase {
    static let coverBytes = 15_000_000

    func testA15MBCoversMemoryIsGivenBackAfterClearAndAfterNext() throws {
        let folder = try TemporaryDirectory(prefix: "big-cover")
        let big = try Self.flacWithCover(in: folder)
        let plain = try Fixtures.shared().vorbis
        let daemon = try RunningDaemon([plain.path])
        try play(daemon)
        try daemon.call("Clear", on: ControlAPI.quaverInterface)
        daemon.waitUntil("cleared") { daemon.tracks.isEmpty }
        let baseline = try residentBytes(daemon)

        for leave in ["Clear", "Next"] {
            try daemon.call("AddTracks", [.stringArray([big.absoluteString, plain.absoluteString]), .string("end"), .boolean(false)],
                            on: ControlAPI.quaverInterface)
            try play(daemon)
            daemon.waitUntil("the cover advertised") { daemon.metadata["mpris:artUrl"] != nil }
            XCTAssertGreaterThan(try residentBytes(daemon), baseline + Self.coverBytes, "the cover is held while it plays")
            if leave == "Clear" {
                try daemon.call("Clear", on: ControlAPI.quaverInterface)
            } else {
                let next = daemon.tracks.last
                try daemon.call("Next")
                daemon.waitUntil("the next track") { daemon.currentTrack == next }
            }
            var resident = 0
            let givenBack = eventually(timeout: 20) {
                resident = (try? residentBytes(daemon)) ?? .max
                return resident < baseline + Self.coverBytes / 2
            }
            XCTAssertTrue(givenBack, "after \(leave): \(resident >> 20) MiB resident, \(baseline >> 20) MiB before the cover")
        }
        daemon.assertIntact(tracks: daemon.tracks)
    }

    private func play(_ daemon: RunningDaemon) throws {
        try daemon.call("Play")
        daemon.waitUntil("playing") { daemon.status == "Playing" && daemon.positionSeconds > 0.3 }
    }

    private func residentBytes(_ daemon: RunningDaemon) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(daemon.process.pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw TestHarnessError("no VmRSS in /proc/\(daemon.process.pid)/status")
        }
        return kibibytes << 10
    }

    /// A FLAC tone with a front cover of `coverBytes`: a PNG header announcing 4000 × 4000 pixels (within the
    /// bounds, so it is advertised) and a filled IDAT chunk, imported by metaflac.
    private static func flacWithCover(in folder: TemporaryDirectory) throws -> URL {
        let header = ImageHeaders.png(width: 4000, height: 4000)
        let cover = folder.url.appendingPathComponent("big.png")
        try Data(header + (0..<(coverBytes - header.count)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
            .write(to: cover)
        let tone = folder.url.appendingPathComponent("tone.wav")
        let flac = folder.url.appendingPathComponent("big cover.flac")
        try Fixtures.run("sox", ["-q", "-n", "-r", "22050", "-c", "1", "-b", "16", tone.path, "synth", "30", "sine", "440", "vol", "0.3"])
        try Fixtures.run("flac", ["-s", "-f", "-o", flac.path, tone.path])
        try Fixtures.run("metaflac", ["--import-picture-from=\(cover.path)", flac.path])
        return flac
    }
}
