@testable import GStreamerEngine
import Glibc
import TestSupport
import XCTest

/// The crossfade's incoming track, decoded by a pipeline of its own into an appsink in the caps asked for.
final class IncomingTrackTests: XCTestCase {
    private func caps(rate: Int) -> String {
        "audio/x-raw,format=S16LE,layout=interleaved,rate=\(rate),channels=\(Fixtures.channels)"
    }

    func testAWAVComesOutBitExactInItsOwnFormat() throws {
        let fixtures = try Fixtures.shared()
        let track = try IncomingTrack(uri: fixtures.sweep.absoluteString, caps: caps(rate: Fixtures.sampleRate))
        XCTAssertNotEqual(track.start(), .failure)
        let decoded = try drain(track)
        XCTAssertEqual(decoded, try wavSamples(fixtures.sweep), "every sample, unchanged")
    }

    func testAnotherRateIsResampledInItsOwnPipeline() throws {
        let fixtures = try Fixtures.shared()
        let track = try IncomingTrack(uri: fixtures.sweep.absoluteString, caps: caps(rate: 48_000))
        XCTAssertNotEqual(track.start(), .failure)
        let frames = try drain(track).count / Fixtures.channels
        let expected = try wavSamples(fixtures.sweep).count / Fixtures.channels * 48_000 / Fixtures.sampleRate
        XCTAssertEqual(Double(frames), Double(expected), accuracy: 2, "the same length at 48 kHz")
    }

    func testAMissingFileGivesNothingAndStops() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-incoming")
        let track = try IncomingTrack(uri: directory.url.appendingPathComponent("none.wav").absoluteString,
                                      caps: caps(rate: Fixtures.sampleRate))
        _ = track.start()
        XCTAssertNil(track.samples.takeWaiting())
        track.stop()
    }

    /// Takes samples as they come until the stream ended (20 s at most), as 16-bit samples.
    private func drain(_ track: IncomingTrack, file: StaticString = #filePath, line: UInt = #line) throws -> [Int16] {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let taken = track.samples.takeWaiting() { bytes += taken; continue }
            if track.samples.isDrained { break }
            usleep(1_000)
        }
        XCTAssertTrue(track.samples.isDrained, "the stream ended", file: file, line: line)
        track.stop()
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}
