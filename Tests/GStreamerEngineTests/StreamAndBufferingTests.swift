import EventLoop
import Foundation
import GStreamerEngine
import RemoteMedia
import PlayerCore
import TestSupport
import XCTest

/// Radio (ICY metadata) through playbin's own source, and the core's buffering pause on a slow link.
final class StreamAndBufferingTests: XCTestCase {
    func testRadioTitlesReachTheTagsSplitIntoArtistAndTitle() throws {
        // An endless MP3 stream whose ICY StreamTitle changes every 2 s.
        let radio = try TestServer("radio", arguments: [try Fixtures.shared().mp3.path])
        let cache = try MediaCache(directory: radio.folder.url.appendingPathComponent("cache"), capacityBytes: 1 << 20)
        let engine = GStreamerEngine(configuration: .init(
            sink: "fakesink sync=true", applicationName: "Quaver tests",
            network: .init(cache: cache, retries: 1, connectTimeout: 3)))
        let recorder = EventRecorder()
        engine.delegate = recorder
        engine.load(EngineItem(id: TrackID(1), uri: radio.url("stream")), at: .zero, playing: true)
        recorder.wait(for: .seekable(TrackID(1), false), timeout: 20)
        XCTAssertTrue(recorder.contains(.duration(TrackID(1), nil)))
        let first = recorder.wait(for: "an ICY title", timeout: 20) { event -> TrackTags? in
            if case .tags(_, let tags) = event, tags.title?.hasPrefix("Song") == true { return tags } else { return nil }
        }
        XCTAssertEqual(first?.artists, ["Quaver Band"])
        let later = recorder.wait(for: "a later ICY title", timeout: 20) { event -> TrackTags? in
            if case .tags(_, let tags) = event, let title = tags.title, title.hasPrefix("Song"), title != first?.title {
                return tags
            }
            return nil
        }
        XCTAssertEqual(later?.artists, ["Quaver Band"])
        engine.stop()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
            .filter { $0.hasSuffix(".json") }.count, 0, "a live stream was cached")
    }

    /// 12 KB/s for a 16 KB/s MP3: the core pauses while the buffer refills (the position stands still),
    /// PlaybackStatus stays playing, and playing resumes at 100 %. Both paths: our cache (appsrc, we
    /// report buffering) and playbin's own http source (queue2 reports it).
    func testASlowLinkPausesForBufferingWhileTheStatusStaysPlaying() throws {
        for cached in [true, false] {
            let net = try NetworkFixture(slowRate: 12 * 1024)
            let engine = try net.engine(sink: "fakesink sync=true", cached: cached)
            let player = Player(engine: engine)
            let recorder = StateRecorder()
            player.addObserver(recorder)
            _ = player.add([net.server.url("slow/long.mp3")])
            player.play()
            waitForResume(player, recorder, "cached \(cached)")
            pump(until: { player.state == .buffering }, timeout: 40)
            XCTAssertEqual(player.state, .buffering, "cached \(cached): no underrun after playing")
            let stalled = seconds(engine.position)
            pump(until: { false }, timeout: 0.5)
            if player.state == .buffering {
                XCTAssertEqual(seconds(engine.position), stalled, accuracy: 0.05, "cached \(cached): not paused")
            }
            waitForResume(player, recorder, "cached \(cached)")
            XCTAssertEqual(recorder.statuses.filter { $0 != .playing }, [], "cached \(cached)")
            player.stop()
        }
    }

    /// Waits for buffering followed by playing, then checks that the position moves.
    private func waitForResume(_ player: Player, _ recorder: StateRecorder, _ label: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        recorder.states.removeAll()
        pump(until: { recorder.states.contains(.buffering) && player.state == .playing }, timeout: 40)
        XCTAssertTrue(recorder.states.contains(.buffering), "\(label): states \(recorder.states)", file: file, line: line)
        XCTAssertEqual(player.state, .playing, "\(label): never resumed", file: file, line: line)
        let heard = player.position
        runLoop(for: 1)
        XCTAssertGreaterThan(seconds(player.position), seconds(heard), label, file: file, line: line)
    }
}

private final class StateRecorder: PlayerObserver {
    var states: [PlaybackState] = []
    var statuses: [PlaybackStatus] = []
    func playerDidChange(_ change: PlayerChange) {
        if case .state(let state) = change { states.append(state) }
        if case .status(let status) = change { statuses.append(status) }
    }
}
