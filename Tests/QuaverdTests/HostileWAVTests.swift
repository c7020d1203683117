import ControlAPI
import Foundation
import TestSupport
import XCTest

/// WAVs laid out to make GStreamer 1.22's wavparse abort (`gstwavparse.c:763`, `g_assert (size <
/// MAX_CHUNK_SIZE)`): a chunk after the sized data chunk that claims 2 GiB or more, with that much file behind
/// it. Before RIFFLayout's check, each took the whole daemon down; now the track fails with a clear
/// LastError and the next one plays.
final class HostileWAVTests: XCTestCase {
    /// The 10 GB WAV from our server, its data chunk sized, noise after it (test_servers.py, `/huge-sized`).
    func testAHostileWAVFromAServerFailsItsTrackAndTheNextPlays() throws {
        let server = try TestServer("hostile")
        let url = server.url("huge-sized")
        try assertFailsAndTheNextPlays(uri: url, daemon: try RunningDaemon([url, try Media.fixtures().flac.path]))
    }

    /// The same behind a 1 MiB ID3v2 tag (`/huge-tagged`): the tag is read through in order, as id3demux reads it.
    func testAHostileWAVBehindAnID3TagFromAServerFailsItsTrackAndTheNextPlays() throws {
        let server = try TestServer("hostile")
        let url = server.url("huge-tagged")
        try assertFailsAndTheNextPlays(uri: url, daemon: try RunningDaemon([url, try Media.fixtures().flac.path]))
    }

    /// The same layout in a local file: 3 GiB, sparse.
    func testAHostileLocalWAVFailsItsTrackAndTheNextPlays() throws {
        let folder = try TemporaryDirectory(prefix: "hostile-wav")
        let wav = folder.url.appendingPathComponent("hostile.wav")
        try Self.writeHostileWAV(to: wav)
        try assertFailsAndTheNextPlays(uri: wav.absoluteString,
                                       daemon: try RunningDaemon([wav.path, try Media.fixtures().flac.path]))
    }

    /// The same behind an ID3v2 tag: id3demux takes the tag off and wavparse reads the rest in pull mode.
    func testAHostileLocalWAVBehindAnID3TagFailsItsTrackAndTheNextPlays() throws {
        let folder = try TemporaryDirectory(prefix: "hostile-wav")
        let wav = folder.url.appendingPathComponent("tagged hostile.wav")
        try Self.writeHostileWAV(to: wav, after: Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10))
        try assertFailsAndTheNextPlays(uri: wav.absoluteString,
                                       daemon: try RunningDaemon([wav.path, try Media.fixtures().flac.path]))
    }

    /// The hostile file comes second, after a short track that plays to its end: prepared for a gapless
    /// handover (the next-item check prerolls local files), it fails when its turn comes.
    func testAHostileLocalWAVAfterAPlayingTrackFailsInItsTurn() throws {
        let folder = try TemporaryDirectory(prefix: "hostile-wav")
        let wav = folder.url.appendingPathComponent("hostile.wav")
        try Self.writeHostileWAV(to: wav)
        try assertFailsInItsTurn(wav.path, claim: "claims 4294967295 bytes")
    }

    /// The server's file second: it downloads ahead while the first plays (a prepared remote file), is
    /// refused there and never handed over, then fails when the core loads it.
    func testAHostileWAVFromAServerAfterAPlayingTrackFailsInItsTurn() throws {
        let server = try TestServer("hostile")
        try assertFailsInItsTurn(server.url("huge-sized"), claim: "claims 3065361587 bytes")
    }

    /// A folder of hostile WAVs queued whole (hard links of one): each fails in its turn, then the player stops. The
    /// refusal used to reach the core inside the load that the failure before it started, so 20 000 of them were a
    /// recursion 20 000 deep on the loop thread.
    func testAQueueOfHostileLocalWAVsFailsEachThenStops() throws {
        let folder = try TemporaryDirectory(prefix: "hostile-wavs")
        let first = folder.url.appendingPathComponent("00000.wav")
        try Self.writeHostileWAV(to: first)
        for number in 1..<20_000 {
            try FileManager.default.linkItem(at: first, to: folder.url.appendingPathComponent(String(format: "%05d.wav", number)))
        }
        let daemon = try RunningDaemon()
        XCTAssertEqual(try daemon.quaver("add", [folder.path]).status, 0)
        try daemon.playerctl("play")
        daemon.waitUntil("every track failed", timeout: 60, {
            !daemon.process.isRunning || (daemon.status == "Stopped"
                && (try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue)?.contains("WAV chunk") == true)
        })
        XCTAssertTrue(daemon.process.isRunning, "quaverd died: \(daemon.logTail)")
        XCTAssertEqual(daemon.tracks.count, 20_000, "the queue is kept")
        print("LastError: \((try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue) ?? "")")
    }

    private func assertFailsInItsTurn(_ hostile: String, claim: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixtures = try Media.fixtures()
        let daemon = try RunningDaemon([fixtures.flac.path, hostile, fixtures.mp3.path])
        try daemon.playerctl("play")
        daemon.waitUntil("the third track playing", timeout: 30, {
            daemon.currentTrack == "/org/quaver/Track/3" && daemon.status == "Playing"
        }, file: file, line: line)
        XCTAssertTrue(daemon.process.isRunning, daemon.logTail, file: file, line: line)
        let lastError = try daemon.get("LastError", ControlAPI.quaverInterface).stringValue ?? ""
        XCTAssertTrue(lastError.contains(claim), lastError, file: file, line: line)
    }

    private func assertFailsAndTheNextPlays(uri: String, daemon: RunningDaemon,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        try daemon.playerctl("play")
        var lastError = ""
        daemon.waitUntil("LastError for the hostile WAV", timeout: 30, {
            lastError = (try? daemon.get("LastError", ControlAPI.quaverInterface).stringValue) ?? ""
            return !lastError.isEmpty || !daemon.process.isRunning
        }, file: file, line: line)
        XCTAssertTrue(daemon.process.isRunning, "quaverd died: \(daemon.logTail)", file: file, line: line)
        XCTAssertTrue(lastError.contains("undecodable: WAV chunk") && lastError.contains("claims")
                      && lastError.contains("wavparse"), lastError, file: file, line: line)
        daemon.waitUntil("the next track playing", timeout: 20, {
            daemon.currentTrack == "/org/quaver/Track/2" && daemon.status == "Playing" && daemon.positionSeconds > 0.2
        }, file: file, line: line)
        XCTAssertEqual((try? daemon.getAll())?.isEmpty, false, "GetAll(Player) failed", file: file, line: line)
        let logged = daemon.process.standardError.split(separator: "\n").filter { $0.contains("WAV chunk") }
        XCTAssertEqual(logged.count, 1, "one log line for the refused file: \(logged)", file: file, line: line)
        print("hostile WAV \(uri): LastError \(lastError)")
    }

    /// `prefix`, RIFF, fmt (22 050 Hz mono 16-bit), a data chunk of 1 s of silence, then a chunk 'junk'
    /// claiming 0xffffffff bytes, the file 3 GiB long (a hole: it takes no room).
    static func writeHostileWAV(to url: URL, after prefix: [UInt8] = []) throws {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let fmt = [1, 0, 1, 0] + le32(22_050) + le32(44_100) + [2, 0, 16, 0]
        var bytes = prefix + Array("RIFF".utf8) + le32(0xffff_ffff) + Array("WAVEfmt ".utf8) + le32(16) + fmt
        bytes += Array("data".utf8) + le32(44_100) + [UInt8](repeating: 0, count: 44_100)
        bytes += Array("junk".utf8) + le32(0xffff_ffff)
        try Data(bytes).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: 3 << 30)
    }
}
