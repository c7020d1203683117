import Foundation
@testable import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// The next local file is prerolled once, by its check (`NextItemCheck`); what that preroll read (tags, cover,
/// length) is the prompt tag read of the track when it becomes current, so the file is not prerolled again.
final class CheckedReadTests: XCTestCase {
    /// The engine's delegate (held weakly by it), kept for the test's length.
    private let recorder = EventRecorder()

    func testTheNextFilesCheckReadServesItsTagsBeforeAndAfterTheGaplessSwitch() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-checked-read")
        let (engine, next) = try playShortTrack(thenPrepareTaggedFileIn: directory)
        let read = try XCTUnwrap(waitForCheckedRead(of: next, engine), "the check read the prepared file")
        XCTAssertEqual(read.tags.title, "Checked once")
        XCTAssertNotNil(read.tags.coverImage, "the cover too")
        XCTAssertEqual(seconds(read.duration), 3, accuracy: 0.05)
        recorder.wait(for: .trackStarted(TrackID(2)))
        XCTAssertEqual(engine.checkedRead(of: next)?.tags.title, "Checked once", "still there once it is current")
        XCTAssertNil(engine.checkedRead(of: EngineItem(id: TrackID(3), uri: next.uri)), "another entry")
        engine.stop()
        XCTAssertNil(engine.checkedRead(of: next), "forgotten at a stop")
    }

    /// Next loads the prepared item: what its check read stays, for the prompt tag read of the new current track.
    func testLoadingThePreparedItemKeepsWhatItsCheckRead() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-checked-read")
        let (engine, next) = try playShortTrack(thenPrepareTaggedFileIn: directory)
        XCTAssertNotNil(waitForCheckedRead(of: next, engine))
        engine.load(next, at: .zero, playing: true)
        XCTAssertEqual(engine.checkedRead(of: next)?.tags.title, "Checked once")
        engine.stop()
    }

    /// A file written to after its check is read again when it becomes current, not served from the check.
    func testAFileChangedSinceItsCheckIsNotServed() throws {
        let directory = try TemporaryDirectory(prefix: "quaver-checked-read")
        let (engine, next) = try playShortTrack(thenPrepareTaggedFileIn: directory)
        XCTAssertNotNil(waitForCheckedRead(of: next, engine))
        let handle = try FileHandle(forWritingTo: try XCTUnwrap(URL(string: next.uri)))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0, count: 16))
        try handle.close()
        XCTAssertNil(engine.checkedRead(of: next))
        engine.load(next, at: .zero, playing: false)  // as Next does
        XCTAssertNil(engine.checkedRead(of: next))
        engine.stop()
    }

    /// An engine playing 2.3 s of sound, with a tagged 3 s FLAC (with a cover) prepared after it.
    private func playShortTrack(thenPrepareTaggedFileIn directory: TemporaryDirectory) throws
        -> (GStreamerEngine, EngineItem) {
        let file = directory.url.appendingPathComponent("checked.flac")
        try Fixtures.shared().taggedFLAC(at: file, title: "Checked once", artist: "Quaver", album: "Tests", seconds: 3)
        let engine = try GStreamerEngineFactory.make(sink: "fakesink sync=true")
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: try Fixtures.shared().sweepHalvesWAV.0.absoluteString),
                    at: .zero, playing: true)
        let next = EngineItem(id: TrackID(2), uri: file.absoluteString)
        engine.prepareNext(next)
        return (engine, next)
    }

    private func waitForCheckedRead(of item: EngineItem, _ engine: GStreamerEngine) -> TagScanner.Read? {
        var read: TagScanner.Read?
        let deadline = Date().addingTimeInterval(10)
        while read == nil, Date() < deadline {
            runLoop(for: 0.02)
            read = engine.checkedRead(of: item)
        }
        return read
    }
}
