import Foundation
import Glibc

/// A headless PulseAudio for tests (docs/sound-servers.md, "Tests"): its own runtime and home folders,
/// a null sink `a` as default, module-role-cork. Stopped by PID when released. `PULSE_SERVER` is set in
/// this process (pulsesink and libpulse read it) and in `environment` for pactl and paplay.
public final class PulseAudioServer: SoundServerRig {
    public let name = "PulseAudio"
    public let directory: TemporaryDirectory
    public let server: String
    /// Spawned with posix_spawn, not Foundation's Process: with a long-lived sound server as a Process
    /// child, Foundation stopped seeing other children exit (tools, private buses), which then leaked.
    private var daemon: SpawnedTool!
    private let script: URL
    private let daemonEnvironment: [String: String]

    public init() throws {
        directory = try TemporaryDirectory(prefix: "quaver-pulse")
        let runtime = directory.url.appendingPathComponent("run"), home = directory.url.appendingPathComponent("home")
        for folder in [runtime, home] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let socket = directory.path + "/native"
        server = "unix:" + socket
        script = directory.url.appendingPathComponent("test.pa")
        try """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
        load-module module-null-sink sink_name=a
        load-module module-role-cork
        set-default-sink a
        """.write(to: script, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["HOME"] = home.path
        daemonEnvironment = environment
        setenv("PULSE_SERVER", server, 1)
        try start()
    }

    /// Stops the server and starts a new one on the same socket, as a crashed and restarted sound server.
    public func restart() throws {
        daemon.stop()
        try start()
    }

    /// Kills the server (SIGKILL, by PID), as a crash: clients see their connection drop.
    public func kill() {
        daemon.stop(signal: SIGKILL)
    }

    /// Starts the server again on the same socket after `kill()`.
    public func startAgain() throws {
        try start()
    }

    private func start() throws {
        daemon = try SpawnedTool(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--log-target=stderr",
                                  "-F", script.path], environment: daemonEnvironment,
                                 output: directory.path + "/pulseaudio.out", errors: directory.path + "/pulseaudio.err")
        let ready = eventually(timeout: 20) { (try? self.pactl(["info"]))?.status == 0 || !self.daemon.isRunning }
        guard ready, daemon.isRunning else {
            let info = try? pactl(["info"])
            throw TestHarnessError("pulseaudio did not start (pactl: \(String(describing: info))): \(daemon.errors)")
        }
        usleep(1_300_000)  // its null sink runs slow for the first ~1.2 s (measured): nothing is timed before
    }

    public var serverProcessIDs: [pid_t] { [daemon.pid] }

    public func stop() { daemon.stop() }

    deinit {
        daemon?.stop()  // nil when pulseaudio could not be started at all
        unsetenv("PULSE_SERVER")
    }
}

/// A short-lived tool (pactl, paplay, sox) run with posix_spawn and reaped with waitpid. Foundation's
/// Process did not see these exit once pulseaudio ran as a child of the test (they stayed zombies while
/// the test thread waited), so these do not depend on it.
public final class SpawnedTool {
    public let pid: pid_t
    private let output: String
    private let errorFile: String
    private var status: Int32?

    /// Standard output goes to the file `output`, standard error to `errors`.
    public init(_ command: [String], environment: [String: String], output: String, errors: String = "/dev/null") throws {
        self.output = output
        errorFile = errors
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = command.map { strdup($0) } + [nil]
        let envp = LiveChildren.marked(ChildProcess.withUTF8Locale(environment)).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, command[0], &actions, nil, argv, envp) == 0 else {
            throw TestHarnessError("cannot run \(command[0])")
        }
        self.pid = pid
        // Until this object reaps it, the PID stays a zombie of ours: it cannot have been reused.
        LiveChildren.shared.add(pid) { waitpid(pid, nil, WNOHANG) == 0 }
    }

    public var isRunning: Bool { reap(WNOHANG) == nil }

    /// What the tool wrote to standard error, when that went to a file.
    public var errors: String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` (SIGTERM: then SIGKILL after `grace` seconds) and reaps the process.
    public func stop(signal: Int32 = SIGTERM, grace: Double = 3) {
        guard isRunning else { return }
        kill(pid, signal)
        if !eventually(timeout: grace, { !isRunning }) { kill(pid, SIGKILL) }
        _ = finish()
    }

    /// Waits for the exit; returns the exit status and what the tool printed.
    public func finish() -> (status: Int32, stdout: String) {
        let status = reap(0) ?? -1
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    private func reap(_ options: Int32) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, options) } while result == -1 && errno == EINTR
        guard result == pid else { return nil }
        LiveChildren.shared.remove(pid)
        status = (raw >> 8) & 0xff
        return status
    }

    deinit { stop() }
}
