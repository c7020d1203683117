import EventLoop
import Foundation
import PulseAudio
import TestSupport
import XCTest

/// The wrapper against a real headless PulseAudio: what it lists, what it follows, and a server that
/// is killed and started again while the connection is up.
final class SoundServerConnectionTests: XCTestCase {
    var pulse: PulseAudioServer!
    var changes: [SoundServerChange] = []
    var connection: SoundServerConnection!

    var tone: URL!

    override func setUpWithError() throws {
        tone = try Fixtures.shared().wav  // before the server: Foundation's Process misses exits once it runs
        pulse = try PulseAudioServer()
        connection = SoundServerConnection(name: "Quaver tests", interests: [.sinks, .playbackStreams, .defaultSink]) {
            [unowned self] change in self.changes.append(change)
        }
        connection.start()
    }

    override func tearDown() {
        connection?.stop()
        connection = nil
        pump(until: { false }, timeout: 0.1)
        pulse = nil
    }

    private var sinkNames: [String] {
        changes.compactMap { if case .sink(let sink) = $0 { return sink.name } else { return nil } }
    }

    func testListsSinksAndTheDefaultSink() {
        XCTAssertTrue(pump(until: { self.changes.contains(.defaultSink(name: "a")) }, timeout: 10), "\(changes)")
        XCTAssertEqual(changes.first, .connected)
        XCTAssertEqual(sinkNames, ["a"])
    }

    /// `.listed` comes once, after every sink and the default sink the server had (SetOutput waits for it).
    func testTheEndOfTheFirstListsIsMarked() {
        XCTAssertTrue(pump(until: { self.changes.contains(.listed) }, timeout: 10), "\(changes)")
        let listed = changes.firstIndex(of: .listed) ?? 0
        XCTAssertEqual(changes.first, .connected)
        XCTAssertTrue(changes[..<listed].contains(.defaultSink(name: "a")), "\(changes)")
        XCTAssertEqual(changes[..<listed].compactMap { if case .sink(let sink) = $0 { return sink.name } else { return nil } }, ["a"])
        XCTAssertEqual(changes.filter { $0 == .listed }.count, 1)
    }

    func testFollowsAPlaybackStreamWithItsProperties() throws {
        XCTAssertTrue(pump(until: { self.changes.contains(.connected) }, timeout: 10))
        let player = try pulse.paplay(["--property=media.role=event", tone.path])
        defer { _ = player }
        let stream = { () -> SoundStream? in
            for case .playbackStream(let stream) in self.changes where stream.role == "event" { return stream }
            return nil
        }
        XCTAssertTrue(pump(until: { stream() != nil }, timeout: 10), "\(changes)")
        XCTAssertEqual(stream()?.properties["application.process.id"], String(player.pid))
        XCTAssertEqual(stream()?.corked, false)
    }

    /// The server is killed ten times under an open connection: each time the loss is reported once,
    /// the connection comes back on its own and lists the new server's sinks.
    func testSurvivesTheServerBeingKilledAndRestartedTenTimes() throws {
        XCTAssertTrue(pump(until: { self.sinkNames.count == 1 }, timeout: 10), "\(changes)")
        for round in 1...10 {
            changes = []
            pulse.kill()
            XCTAssertTrue(pump(until: { self.changes.contains(.disconnected) }, timeout: 10), "round \(round): \(changes)")
            try pulse.startAgain()
            XCTAssertTrue(pump(until: { self.sinkNames == ["a"] }, timeout: 15), "round \(round): \(changes)")
            XCTAssertEqual(changes.filter { $0 == .disconnected }.count, 1, "round \(round): \(changes)")
            XCTAssertEqual(changes.filter { $0 == .connected }.count, 1, "round \(round): \(changes)")
        }
    }

    /// The server dies at different moments of a connection being made and listed (while connecting,
    /// authorising, answering the lists), and the connection is stopped and started between flaps.
    func testAServerFlappingDuringConnectionSetUp() throws {
        XCTAssertTrue(pump(until: { self.changes.contains(.connected) }, timeout: 10))
        for (round, delay) in [0.0, 0.01, 0.03, 0.1, 0.2, 0.0, 0.05].enumerated() {
            pulse.kill()
            if round % 2 == 1 { connection.stop(); connection.start() }
            try pulse.startAgain()
            pump(until: { false }, timeout: delay)
        }
        changes = []
        pulse.kill()
        try pulse.startAgain()
        XCTAssertTrue(pump(until: { self.sinkNames == ["a"] }, timeout: 15), "\(changes)")
    }

    func testStopInsideAChangeHandlerIsSafe() {
        var stopped = false
        let second = SoundServerConnection(name: "Quaver tests", interests: [.sinks]) { _ in }
        var own: SoundServerConnection?
        own = SoundServerConnection(name: "Quaver tests", interests: [.sinks]) { _ in
            own?.stop()
            own = nil  // released from its own handler
            stopped = true
        }
        own?.start()
        second.start()
        XCTAssertTrue(pump(until: { stopped }, timeout: 10))
        pump(until: { false }, timeout: 0.3)
        XCTAssertNil(own)
    }
}
