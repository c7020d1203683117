import Foundation
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Decoders hand playbin their output gathered into buffers of about 100 ms (GstAudioDecoder's `min-latency`,
/// set by the engine on every decoder playbin plugs): an MP3's frames of 26 ms reach the output four at a
/// time, and the stream's last samples still arrive. The output writes each buffer it gets to a file of its
/// own (`multifilesink next-file=buffer`).
final class DecodedBufferTests: XCTestCase {
    func testAnMP3ReachesTheOutputInBuffersOfATenthOfASecondAndWhole() throws {
        let fixtures = try Fixtures.shared()
        let folder = try TemporaryDirectory(prefix: "quaver-decoded-buffers")
        let raw = "audioconvert ! audio/x-raw,format=S16LE,channels=2,rate=44100"
        let engine = try GStreamerEngineFactory.make(
            sink: "\(raw) ! multifilesink sync=false next-file=buffer location=\"\(folder.path)/buffer-%05d\"")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: fixtures.mp3.absoluteString), at: .zero, playing: true)
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 30)
        engine.stop()

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("buffer-") }.sorted()
        let frames = try names.map { name in
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: folder.path + "/" + name)[.size] as? Int) / 4
        }
        let reference = folder.url.appendingPathComponent("reference.raw")
        try Fixtures.run("gst-launch-1.0", ["-q", "filesrc", "location=\(fixtures.mp3.path)", "!", "decodebin", "!"]
                         + raw.split(separator: " ").map(String.init) + ["!", "filesink", "location=\(reference.path)"])
        let referenceFrames = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: reference.path)[.size] as? Int) / 4
        XCTAssertEqual(frames.reduce(0, +), referenceFrames, "every decoded sample reaches the output")
        XCTAssertGreaterThan(frames.count, 10)
        let short = frames.dropLast().filter { $0 < 4410 }
        XCTAssertTrue(short.isEmpty, "buffers under 100 ms before the last: \(short.count) of \(frames.count), frames \(frames.prefix(12))")
    }
}
