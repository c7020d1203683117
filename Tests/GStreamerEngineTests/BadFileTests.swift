import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// Files that cannot be played end in `.failed` with a fitting kind, never a crash or a hang, and
/// the same engine then plays a good file. Fails without `Element.failsWithoutAudioStream`: the video without
/// frames prerolls and then stands still (every time), and the image does so now and then.
final class BadFileTests: XCTestCase {
    func testBadFilesFailWithAFittingKindAndTheEngineRecovers() throws {
        let fixtures = try Fixtures.shared()
        let expected: [(URL, Set<EngineError.Kind>)] = [
            (fixtures.truncated, [.undecodable]),
            (fixtures.randomBytes, [.undecodable]),
            (fixtures.folder, [.unreadable]),
            (fixtures.missing, [.notFound]),
            (fixtures.text, [.undecodable]),
            (fixtures.image, [.missingPlugin, .undecodable]),
            (fixtures.videoWithoutFrames, [.undecodable]),
        ]
        let engine = try GStreamerEngineFactory.make(sink: "fakesink sync=false")
        let recorder = EventRecorder()
        engine.delegate = recorder
        for (index, (url, kinds)) in expected.enumerated() {
            let id = TrackID(UInt64(index * 2 + 1))
            engine.load(EngineItem(id: id, uri: url.absoluteString), at: .zero, playing: true)
            let error = recorder.wait(for: "failure of \(url.lastPathComponent)") { event -> EngineError? in
                if case .failed(id, let error) = event { return error }
                return nil
            }
            XCTAssertTrue(error.map { kinds.contains($0.kind) } ?? false,
                          "\(url.lastPathComponent): \(String(describing: error))")
            XCTAssertTrue(error?.message.contains(url.lastPathComponent) ?? false, "the message names the file")

            let good = TrackID(id.rawValue + 1)
            engine.load(EngineItem(id: good, uri: fixtures.flac.absoluteString), at: .milliseconds(9_500), playing: true)
            recorder.wait(for: .endOfStream(good))
        }
        XCTAssertFalse(recorder.events.contains { if case .failed(let id, _) = $0 { return id.rawValue % 2 == 0 } else { return false } })
    }
}
