import Foundation
import Glibc

/// A headless PipeWire session for tests, as desktops run it but without systemd: `pipewire`, `wireplumber`
/// and `pipewire-pulse` as plain child processes with their own runtime, config and home folders and a
/// private session bus, and two `support.null-audio-sink` sinks, `a` (the default) and `b`.
/// Clients reach it through pipewire-pulse's socket (`PULSE_SERVER`, set in this process while it lives;
/// without it paplay could autospawn a real PulseAudio). Every process is stopped by PID when released.
public final class PipeWireServer: SoundServerRig {
    public let name = "PipeWire"
    public let directory: TemporaryDirectory
    public let server: String
    private let bus: PrivateBus
    private let serverEnvironment: [String: String]
    /// Spawned with posix_spawn, not Foundation's Process (see `PulseAudioServer.daemon`).
    private var processes: [SpawnedTool] = []

    public init() throws {
        directory = try TemporaryDirectory(prefix: "quaver-pipewire")
        let runtime = directory.url.appendingPathComponent("run"), home = directory.url.appendingPathComponent("home")
        let config = directory.url.appendingPathComponent("config")
        let dropIns = config.appendingPathComponent("pipewire/pipewire.conf.d")
        for folder in [runtime, home, dropIns] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        chmod(runtime.path, 0o700)  // PipeWire and pipewire-pulse refuse a runtime folder others can read
        try PipeWireServer.nullSinks.write(to: dropIns.appendingPathComponent("quaver-null-sinks.conf"),
                                           atomically: true, encoding: .utf8)
        bus = try PrivateBus()
        var environment = bus.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["HOME"] = home.path
        environment["PULSE_SERVER"] = nil
        serverEnvironment = environment
        server = "unix:" + runtime.path + "/pulse/native"
        setenv("PULSE_SERVER", server, 1)
        try start()
    }

    /// Two null sinks; `a` has the higher priority, so WirePlumber makes it the default.
    static let nullSinks = """
        context.objects = [
            { factory = adapter
              args = { factory.name = support.null-audio-sink node.name = "a" node.description = "Null a"
                       media.class = "Audio/Sink" audio.position = [ FL FR ] priority.session = 1010 object.linger = true } }
            { factory = adapter
              args = { factory.name = support.null-audio-sink node.name = "b" node.description = "Null b"
                       media.class = "Audio/Sink" audio.position = [ FL FR ] priority.session = 1000 object.linger = true } }
        ]
        """

    public var serverProcessIDs: [pid_t] { processes.map(\.pid) }

    /// pipewire-pulse's process (`start` starts it last), which serves every PulseAudio client's stream.
    public var pulseLayerProcessID: pid_t? { processes.last?.pid }

    /// The environment for native PipeWire clients (pw-play): they find the server in its runtime folder.
    public var nativeEnvironment: [String: String] {
        environment.merging(["PIPEWIRE_RUNTIME_DIR": serverEnvironment["XDG_RUNTIME_DIR"]!]) { $1 }
    }

    public func kill() {
        for process in processes.reversed() { process.stop(signal: SIGKILL) }
        processes = []
    }

    public func startAgain() throws {
        try start()
    }

    /// pipewire first (the others connect to it), then the session manager, then the PulseAudio layer;
    /// ready when pactl sees both sinks and `a` as the default.
    private func start() throws {
        for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
            processes.append(try SpawnedTool([program], environment: serverEnvironment,
                                             output: directory.path + "/\(program).out", errors: directory.path + "/\(program).err"))
            if program == "pipewire" { usleep(200_000) }
        }
        let ready = eventually(timeout: 20) {
            let info = (try? self.pactl(["info"]))?.stdout ?? ""
            return (info.contains("Default Sink: a") && (try? self.sinkIndex("b")) != nil)
                || self.processes.contains { !$0.isRunning }
        }
        guard ready, processes.allSatisfy(\.isRunning) else {
            let errors = processes.map(\.errors)
            throw TestHarnessError("PipeWire did not start: \(errors.joined(separator: "\n"))")
        }
    }

    public func stop() { kill() }

    deinit {
        kill()
        bus.stop()
        unsetenv("PULSE_SERVER")
    }
}
