import EventLoop
import Foundation
import CGStreamer
import GStreamer
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// HLS through playbin's own source (hlsdemux): a 10 s playlist of 2 s MPEG-TS segments (MP3 inside),
/// made by hlssink2 and served by nginx. The cache stays out of it (`.m3u8`).
final class HLSTests: XCTestCase {
    private func makeStream(in folder: URL, endList: Bool) throws {
        let hls = folder.appendingPathComponent("hls")
        try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: true)
        // In-process: gst-launch-1.0 as a child of the test runner never finished here (timed out at 60 s).
        GStreamer.initialize()
        let pipeline = try Element.pipeline(
            "audiotestsrc num-buffers=430 samplesperbuffer=1024 ! audio/x-raw,rate=44100,channels=2 "
            + "! lamemp3enc bitrate=64 ! mpegaudioparse ! hlssink2 location=\(hls.path)/seg%05d.ts "
            + "playlist-location=\(hls.path)/index.m3u8 target-duration=2 max-files=0 playlist-length=0")
        var done = false
        let watch = pipeline.bus.watch { message in
            switch message.kind {
            case .endOfStream, .error: done = true
            default: break
            }
        }
        defer { watch.cancel(); pipeline.setState(.null) }
        pipeline.setState(.playing)
        XCTAssertTrue(pump(until: { done }, timeout: 30), "HLS segments not written")
        guard !endList else { return }
        // A live playlist is one without #EXT-X-ENDLIST (RFC 8216 §4.3.3.4): more segments may come.
        let playlist = hls.appendingPathComponent("index.m3u8")
        let text = try String(contentsOf: playlist, encoding: .utf8).replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
        try text.write(to: playlist, atomically: true, encoding: .utf8)
    }

    private func play(endList: Bool, proxy: String? = nil) throws -> (EventRecorder, GStreamerEngine, NetworkFixture) {
        let net = try NetworkFixture()
        try makeStream(in: net.server.root, endList: endList)
        let engine = try net.engine(sink: "fakesink sync=true", proxy: proxy)
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: net.server.url("hls/index.m3u8")), at: .zero, playing: true)
        recorder.wait(for: .trackStarted(TrackID(1)), timeout: 20)
        XCTAssertTrue(pump(until: { seconds(engine.position) > 1 }, timeout: 20), "position \(seconds(engine.position))")
        return (recorder, engine, net)
    }

    func testAnHLSPlaylistPlaysIsSeekableAndEnds() throws {
        let (recorder, engine, net) = try play(endList: true)
        let duration = recorder.wait(for: "duration", timeout: 10) { event -> Duration? in
            if case .duration(_, .some(let duration)) = event { return duration } else { return nil }
        }
        XCTAssertEqual(seconds(duration), 10, accuracy: 0.5)
        recorder.wait(for: .seekable(TrackID(1), true), timeout: 10)
        engine.seek(to: .seconds(6), exact: false)
        let landed = recorder.waitForSeekCompleted()
        XCTAssertEqual(seconds(landed), 6, accuracy: 2.1)  // a seek lands on a segment start
        recorder.wait(for: .endOfStream(TrackID(1)), timeout: 20)
        XCTAssertTrue(net.server.accessLog.contains { $0.request.contains("seg00004.ts") }, "\(net.server.accessLog)")
    }

    /// Without ENDLIST there is no length. hlsdemux still answers SEEKING with true (the playlist's
    /// segments are a seek window, measured), but a stream without a length is live: not seekable.
    func testALivePlaylistPlaysWithoutALength() throws {
        let (recorder, engine, _) = try play(endList: false)
        recorder.wait(for: .seekable(TrackID(1), false), timeout: 10)
        runLoop(for: 1)
        XCTAssertFalse(recorder.events.contains(.seekable(TrackID(1), true)), "a live playlist is not seekable")
        XCTAssertFalse(recorder.events.contains { if case .duration(_, .some) = $0 { return true } else { return false } },
                       "\(recorder.events.filter { if case .buffering = $0 { return false } else { return true } })")
        engine.stop()
    }

    /// One proxy setting covers both sources: HLS through playbin's own (souphttpsrc `proxy`, set in
    /// source-setup) and a cached file through RemoteMedia.
    func testTheProxySettingCoversHLSAndCachedFiles() throws {
        let proxy = try TestServer("proxy")
        let (_, engine, net) = try play(endList: true, proxy: "http://127.0.0.1:\(proxy.port)")
        engine.stop()
        XCTAssertTrue(proxy.proxiedURLs.contains(net.server.url("hls/index.m3u8")), "\(proxy.proxiedURLs)")
        XCTAssertTrue(proxy.proxiedURLs.contains { $0.hasSuffix(".ts") }, "segments bypassed the proxy: \(proxy.proxiedURLs)")

        let file = net.server.url("short.mp3")
        net.playToEndCached(engine, file, id: 2, size: net.size(of: "short.mp3"))
        XCTAssertTrue(proxy.proxiedURLs.contains(file), "\(proxy.proxiedURLs)")
    }

    /// A proxy that asks for a login, given in the setting's URL: hlsdemux's fragment sources get it apart
    /// (`proxy-id`, `proxy-pw`; libsoup takes none from the URL), libcurl from the URL.
    func testHLSAndCachedFilesGoThroughAProxyThatAsksForALogin() throws {
        let proxy = try TestServer("proxy", arguments: ["quaver:s3cret"])
        let (_, engine, net) = try play(endList: true, proxy: "http://quaver:s3cret@127.0.0.1:\(proxy.port)")
        engine.stop()
        XCTAssertTrue(proxy.proxiedURLs.contains(net.server.url("hls/index.m3u8")), "\(proxy.proxiedURLs)")
        XCTAssertTrue(proxy.proxiedURLs.contains { $0.hasPrefix("http") && $0.hasSuffix(".ts") }, "\(proxy.proxiedURLs)")

        let file = net.server.url("short.mp3")
        net.playToEndCached(engine, file, id: 2, size: net.size(of: "short.mp3"))
        XCTAssertTrue(proxy.proxiedURLs.contains(file), "\(proxy.proxiedURLs)")
    }
}
