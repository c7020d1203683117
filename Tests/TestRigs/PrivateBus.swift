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

    /// The test process's environment pointed at this bus, for child processes (clients, services).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = nil
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
