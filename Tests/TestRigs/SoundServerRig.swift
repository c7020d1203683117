import Foundation
import Glibc

/// A headless sound server a test started (`PulseAudioServer`, `PipeWireServer`), speaking the PulseAudio
/// protocol on `server`, with a default sink named `a`. Both set `PULSE_SERVER` in this process while
/// they live, so pulsesink and libpulse in the test process use them.
public protocol SoundServerRig: AnyObject {
    /// "PulseAudio" or "PipeWire", for messages and figures.
    var name: String { get }
    var directory: TemporaryDirectory { get }
    /// The `PULSE_SERVER` address.
    var server: String { get }
    /// The processes that make up the server, for CPU figures.
    var serverProcessIDs: [pid_t] { get }
    /// Kills every process of the server (SIGKILL, by PID), as a crash.
    func kill()
    /// Starts the server again after `kill()`, on the same socket, and waits until it serves.
    func startAgain() throws
}

extension SoundServerRig {
    /// The test environment pointed at this server, for pactl, paplay and quaverd.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server
        return environment
    }

    /// Runs pactl to completion.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try SpawnedTool(["pactl"] + arguments, environment: environment, output: directory.path + "/pactl.out").finish()
    }

    /// Starts `paplay` with `arguments` (a file and properties); it ends when the file has played.
    public func paplay(_ arguments: [String]) throws -> SpawnedTool {
        try SpawnedTool(["paplay"] + arguments, environment: environment, output: directory.path + "/paplay.out")
    }

    /// Moves playback stream `index` to the sink `sink` as a mixer does, through a client that stays connected
    /// until it is stopped (`move_stream.py`, next to this file, says why pactl will not do on PipeWire).
    public func moveStreamAsAMixer(_ index: Int, to sink: String) throws -> SpawnedTool {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("move_stream.py")
        return try SpawnedTool(["python3", script.path, String(index), sink], environment: environment,
                               output: directory.path + "/move_stream.out", errors: directory.path + "/move_stream.err")
    }

    /// The playback streams as pactl lists them (`pactl -f json list sink-inputs`): index, sink, properties.
    public func playbackStreams() throws -> [(index: Int, sink: Int, properties: [String: String])] {
        let listed = try pactl(["-f", "json", "list", "sink-inputs"])
        guard listed.status == 0, let items = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        else { throw TestHarnessError("pactl list sink-inputs: \(listed.stdout)") }
        return items.map { item in
            (item["index"] as? Int ?? -1, item["sink"] as? Int ?? -1, item["properties"] as? [String: String] ?? [:])
        }
    }

    /// The index of the sink named `name`, from `pactl list short sinks`.
    public func sinkIndex(_ name: String) throws -> Int? {
        let sinks = try pactl(["list", "short", "sinks"]).stdout
        let line = sinks.split(separator: "\n").first { $0.split(separator: "\t").dropFirst().first == Substring(name) }
        return line.flatMap { $0.split(separator: "\t").first.flatMap { Int($0) } }
    }

    /// A tone in this server's folder, made with sox (run before anything waits on Foundation's Process).
    public func tone(seconds: Int, named name: String) throws -> URL {
        let file = directory.url.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: file.path) {
            let made = try SpawnedTool(["sox", "-q", "-n", "-r", "44100", "-c", "2", file.path, "synth", String(seconds),
                                        "sine", "660"], environment: environment, output: directory.path + "/sox.out").finish()
            guard made.status == 0 else { throw TestHarnessError("sox failed for \(name)") }
        }
        return file
    }
}
