import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// What only the real engine can show: tags and covers read from real files, bit-exact gapless
/// output, and GStreamer's errors sorted into EngineError kinds.
final class GStreamerEngineTests: XCTestCase {
    var fixtures: Fixtures!
    var output: TemporaryDirectory!

    override func setUpWithError() throws {
        fixtures = try Fixtures.shared()
        output = try TemporaryDirectory(prefix: "quaver-engine-out")
    }

    private func start(_ url: URL, sink: String = "fakesink sync=false") throws -> (GStreamerEngine, EventRecorder) {
        let engine = try GStreamerEngineFactory.make(sink: sink)
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: url.absoluteString), at: .zero, playing: false)
        return (engine, recorder)
    }

    private func tags(of url: URL, until done: (TrackTags) -> Bool) throws -> TrackTags? {
        let (engine, recorder) = try start(url)
        defer { engine.stop() }
        return recorder.wait(for: "tags of \(url.lastPathComponent)") { event -> TrackTags? in
            if case .tags(TrackID(1), let tags) = event, done(tags) { return tags }
            return nil
        }
    }

    func testFLACAndMP3TagsIncludeTheEmbeddedCover() throws {
        for url in [fixtures.flac, fixtures.mp3] {
            let tags = try tags(of: url) { $0.coverImage != nil && $0.trackNumber != nil }
            XCTAssertEqual(tags?.title, Fixtures.title, url.lastPathComponent)
            XCTAssertEqual(tags?.artists, [Fixtures.artist], url.lastPathComponent)
            XCTAssertEqual(tags?.album, Fixtures.album, url.lastPathComponent)
            XCTAssertEqual(tags?.trackNumber, Fixtures.trackNumber, url.lastPathComponent)
            XCTAssertEqual(tags?.coverImage?.data, fixtures.coverBytes, url.lastPathComponent)
            XCTAssertEqual(tags?.coverImage?.mimeType, "image/png", url.lastPathComponent)
        }
    }

    func testVorbisAndWAVTags() throws {
        let vorbis = try tags(of: fixtures.vorbis) { $0.trackNumber != nil && $0.album != nil }
        XCTAssertEqual(vorbis?.title, Fixtures.title)
        XCTAssertEqual(vorbis?.artists, [Fixtures.artist])
        XCTAssertEqual(vorbis?.trackNumber, Fixtures.trackNumber)
        let wav = try tags(of: fixtures.wav) { $0.album != nil && $0.title != nil }
        XCTAssertEqual(wav?.title, Fixtures.title)
        XCTAssertEqual(wav?.artists, [Fixtures.artist])
        XCTAssertEqual(wav?.album, Fixtures.album)
    }

    func testRepeatedTagMessagesAreReportedOnce() throws {
        let (engine, recorder) = try start(fixtures.mp3)
        defer { engine.stop() }
        engine.play()
        runLoop(for: 1.5)
        let reported = recorder.events.compactMap { event -> TrackTags? in
            if case .tags(_, let tags) = event { return tags }
            return nil
        }
        XCTAssertFalse(reported.isEmpty)
        XCTAssertEqual(Set(reported.map { "\($0)" }).count, reported.count, "the same tags were reported twice")
    }

    func testSupportedMimeTypesIncludeTheFixtureFormats() {
        let types = GStreamerEngine.supportedMimeTypes()
        for type in ["audio/x-flac", "audio/mpeg", "application/ogg", "audio/x-wav", "audio/x-vorbis"] {
            XCTAssertTrue(types.contains(type), "\(type) missing from \(types.count) types")
        }
        XCTAssertFalse(types.contains("video/x-raw"))
    }
}
