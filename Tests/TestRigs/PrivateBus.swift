import Foundation

/// A private `dbus-daemon` with a session-like configuration, so tests never touch the user's bus.
/// Stopped by PID when released (through `ChildProcess`).
public final class PrivateBus {
    public let directory: TemporaryDirectory
    public let address: String
    private let daemon: ChildProcess

    /// `serviceDirectories` become `<servicedir>` entries, for D-Bus activation tests.
    public init(serviceDirectories: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "quaver-bus")
        let config = directory.url.appendingPathComponent("session.conf")
        try PrivateBus.configuration(socket: directory.path + "/bus", serviceDirectories: serviceDirectories)
            .write(to: config, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"],
                                  logDirectory: directory.url, name: "dbus-daemon")
        let daemon = daemon
        guard eventually(timeout: 10, { daemon.standardOutput.contains("\n") || !daemon.isRunning }),
              let line = daemon.standardOutput.split(separator: "\n").first else {
            throw TestHarnessError("dbus-daemon did not print its address: \(daemon.standardError)")
        }
        address = String(line)
    }

    /// The test process's environment pointed at this bus, for child processes (clients, services), without what
    /// a developer's machine may set that would reach outside the test: its login session and system bus (a test
    /// that wants a system bus passes its own DBUS_SYSTEM_BUS_ADDRESS; without one the default socket is tried,
    /// which a fresh machine does not have), and proxies (the tests' servers are on 127.0.0.1; a proxy test sets
    /// its own).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        for name in ["DBUS_SYSTEM_BUS_ADDRESS", "XDG_SESSION_ID", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
                     "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"] {
            environment[name] = nil
        }
        return environment
    }

    /// `environment` for a quaverd whose home and XDG folders are all under `home`, whatever the machine sets
    /// (XDG_DATA_HOME is its default, `home`/.local/share, where tests look for saved playlists). XDG_RUNTIME_DIR
    /// too: without one, libpulse makes its runtime folder in TMPDIR (`pulse-XXXXXXXXXXXX`, linked from the home's
    /// .config/pulse) and nothing removes it; a sound server's rig passes its own server in PULSE_SERVER.
    public func daemonEnvironment(home: String) -> [String: String] {
        var environment = self.environment
        environment["HOME"] = home
        let runtime = home + "/runtime"
        try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime
        for (key, folder) in [("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config"),
                              ("XDG_DATA_HOME", ".local/share")] {
            environment[key] = home + "/" + folder
        }
        return environment
    }

    public var isRunning: Bool { daemon.isRunning }

    public func stop() { daemon.stop() }

    static func configuration(socket: String, serviceDirectories: [String]) -> String {
        let services = serviceDirectories.map { "  <servicedir>\($0)</servicedir>" }.joined(separator: "\n")
        return """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <!-- A real session bus's limits (Debian's session.conf): a test's large call gets through as it would there. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
        \(services)
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }
}
