import GStreamer
import TestSupport
@testable import GStreamerEngine
import PlayerCore
import XCTest

/// Messages that real files cannot provoke on demand, posted on the engine's own bus the way an
/// element would post them (gst_message_new_error / _request_state), and the error sorting itself.
final class BusMessageTests: XCTestCase {
    func testRequestStateFromTheSoundServerBecomesAnInterruption() throws {
        let engine = try GStreamerEngineFactory.make(sink: "fakesink")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: try Fixtures.shared().flac.absoluteString), at: .zero, playing: false)
        let pipeline = try XCTUnwrap(engine.pipeline, "the load built the pipeline")
        pipeline.playbin.bus.post(.requestState(from: pipeline.output, .paused))
        recorder.wait(for: .interruption(began: true))
        pipeline.playbin.bus.post(.requestState(from: pipeline.output, .playing))
        recorder.wait(for: .interruption(began: false))
    }

    func testOutputErrorBeforeAnythingPlayedFailsTheItemAsOutputUnavailable() throws {
        let engine = try GStreamerEngineFactory.make(sink: "fakesink")
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(3), uri: "file:///nowhere.flac"), at: .zero, playing: false)
        let pipeline = try XCTUnwrap(engine.pipeline, "the load built the pipeline")
        // filesrc fails to open during load's own state change: drop that error, keep only ours.
        pipeline.playbin.bus.dropPending()
        let refused = GStreamerError(domain: .resource, code: 7, message: "Failed to connect: Connection refused")
        pipeline.playbin.bus.post(.error(from: pipeline.output, refused))
        let error = recorder.wait(for: "failed") { event -> EngineError? in
            if case .failed(TrackID(3), let error) = event { return error }
            return nil
        }
        XCTAssertEqual(error?.kind, .outputUnavailable)
    }

    func testErrorKinds() {
        func kind(_ domain: GStreamerError.Domain, _ code: Int32, output: Bool = false, plugin: Bool = false,
                  uri: String = "file:///a.flac") -> EngineError.Kind {
            EngineError.Kind(GStreamerError(domain: domain, code: code, message: ""), fromOutput: output,
                             pluginMissing: plugin, uri: uri)
        }
        // Codes from gsterror.h: RESOURCE NOT_FOUND 3, OPEN_READ 5, OPEN_READ_WRITE 7; STREAM CODEC_NOT_FOUND 6, DECODE 7,
        // TYPE_NOT_FOUND 4; CORE MISSING_PLUGIN 12.
        XCTAssertEqual(kind(.resource, 3), .notFound)
        XCTAssertEqual(kind(.resource, 5), .unreadable)
        XCTAssertEqual(kind(.resource, 5, uri: "http://example.org/a.mp3"), .network)
        XCTAssertEqual(kind(.stream, 6), .missingPlugin)
        XCTAssertEqual(kind(.stream, 7), .undecodable)
        XCTAssertEqual(kind(.stream, 4), .undecodable)
        XCTAssertEqual(kind(.core, 12), .missingPlugin)
        XCTAssertEqual(kind(.stream, 1, plugin: true), .missingPlugin)
        XCTAssertEqual(kind(.resource, 7, output: true), .outputUnavailable)
    }
}
