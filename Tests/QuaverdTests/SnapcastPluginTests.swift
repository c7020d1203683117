import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// quaver-snapcast-plugin driven as snapserver drives it, over its standard input and output, against the
/// real quaverd: every request gets its answer, bad ones a JSON-RPC error, and the plugin keeps running.
final class SnapcastPluginTests: XCTestCase {
    func testThePluginAnswersEveryRequestAndRefusesBadOnes() throws {
        let fixtures = try Fixtures.shared()
        let daemon = try RunningDaemon([fixtures.flac.absoluteString])
        let plugin = try PluginProcess(busAddress: daemon.bus.address)
        defer { plugin.stop() }
        XCTAssertTrue(plugin.waitFor { $0["method"] as? String == "Plugin.Stream.Ready" }, "Ready first")

        let refused: [(String, Int)] = [
            ("this is not JSON", -32700),
            (#"{"jsonrpc":"2.0","id":1,"method":"Plugin.Stream.Player.Control","params":{"command":"explode"}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":2,"method":"Plugin.Stream.Player.SetProperty","params":{"volume":true}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":3,"method":"Plugin.Stream.Player.SetProperty","params":{"shuffle":1}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":4,"method":"Plugin.Stream.Player.Control","params":{"command":"seek","params":{"offset":"x"}}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":5,"method":"Plugin.Stream.Nonsense"}"#, -32601),
            (#"{"jsonrpc":"2.0","id":6,"method":5}"#, -32600),
            (#"{"jsonrpc":"2.0","id":7,"method":"Plugin.Stream.Player.SetProperty","params":{"loopStatus":"sometimes"}}"#, -32602),
            ("[" + String(repeating: "9,", count: 600_000) + "9]", -32700),  // past the 1 MiB line limit
        ]
        for (line, code) in refused {
            plugin.send(line)
            var answer: [String: Any] = [:]
            XCTAssertTrue(plugin.waitFor { answer = $0; return $0["error"] != nil }, "no error for \(line.prefix(80))")
            XCTAssertEqual((answer["error"] as? [String: Any])?["code"] as? Int, code, String(line.prefix(80)))
        }

        plugin.send(#"{"jsonrpc":"2.0","id":10,"method":"Plugin.Stream.Player.SetProperty","params":{"volume":55}}"#)
        XCTAssertTrue(plugin.waitFor { $0["id"] as? Int == 10 && $0["result"] as? String == "ok" })
        XCTAssertEqual(try daemon.get("Volume").doubleValue ?? 0, 0.55, accuracy: 0.001)
        plugin.send(#"{"jsonrpc":"2.0","id":11,"method":"Plugin.Stream.Player.Control","params":{"command":"play"}}"#)
        XCTAssertTrue(plugin.waitFor { $0["id"] as? Int == 11 && $0["result"] as? String == "ok" })
        daemon.waitUntil("Playing") { daemon.status == "Playing" }
        XCTAssertTrue(plugin.waitFor { message in
            let properties = message["params"] as? [String: Any] ?? [:]
            let metadata = properties["metadata"] as? [String: Any] ?? [:]
            return message["method"] as? String == "Plugin.Stream.Player.Properties"
                && properties["playbackStatus"] as? String == "playing" && properties["volume"] as? Int == 55
                && metadata["title"] as? String == Fixtures.title && metadata["artist"] as? [String] == [Fixtures.artist]
                && (metadata["artData"] as? [String: Any])?["extension"] as? String == "png"
        }, "a Properties notification with the new state, the track and its cover")
        plugin.send(#"{"jsonrpc":"2.0","id":12,"method":"Plugin.Stream.Player.Control","params":{"command":"setPosition","params":{"position":1e300}}}"#)
        XCTAssertTrue(plugin.waitFor { $0["id"] as? Int == 12 }, "a far position is answered")
        plugin.send(#"{"jsonrpc":"2.0","id":13,"method":"Plugin.Stream.Player.Control","params":{"command":"pause"}}"#)
        daemon.waitUntil("Paused") { daemon.status == "Paused" }
        XCTAssertTrue(plugin.isRunning, "the plugin kept running")
        daemon.assertIntact(tracks: daemon.tracks)
    }
}

/// The plugin with pipes on its standard input and output, as snapserver runs it; stopped by PID (also used
/// by FolderCoverTests).
final class PluginProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    init(busAddress: String) throws {
        process.executableURL = productsDirectory.appendingPathComponent("quaver-snapcast-plugin")
        process.arguments = ["--stream=Quaver", "--snapcast-port=1780", "--snapcast-host=127.0.0.1",
                             "--bus-address=\(busAddress)"]
        process.environment = LiveChildren.marked(ProcessInfo.processInfo.environment)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let process = process
        LiveChildren.shared.add(process.processIdentifier) { process.isRunning }
        let fd = output.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    var isRunning: Bool { process.isRunning }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads messages until one satisfies `condition` (true) or `timeout` passes (false).
    func waitFor(timeout: Double = 10, _ condition: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                if let message = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any], condition(message) {
                    return true
                }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { buffer += chunk[0..<count] } else { usleep(5_000) }
        }
        return false
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !eventually(timeout: 3, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        LiveChildren.shared.remove(process.processIdentifier)
    }

    deinit { stop() }
}
