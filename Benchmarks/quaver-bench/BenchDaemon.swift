import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient
import TestRigs

/// A private dbus-daemon and a client connection on it, for benchmarks of the real quaverd.
final class BenchBus {
    let address: String
    let client: Connection
    private let daemon: BenchProcess

    /// `admittingOtherUsers`: a bus any local user may join (an abstract socket, every user allowed), for
    /// a reference player that refuses to run as root (`VLCReference`); otherwise the session bus's own rules.
    init(admittingOtherUsers: Bool = false) throws {
        var arguments = ["--session", "--nofork", "--print-address=1"]
        var configuration: URL?
        if admittingOtherUsers {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("quaver-bench-bus.\(getpid()).conf")
            try Self.openConfiguration(name: "quaver-bench-\(getpid())").write(to: file, atomically: true, encoding: .utf8)
            configuration = file
            arguments = ["--config-file=\(file.path)", "--nofork", "--print-address=1"]
        }
        defer { configuration.map { try? FileManager.default.removeItem(at: $0) } }
        daemon = try BenchProcess("/usr/bin/dbus-daemon", arguments)
        address = try daemon.firstLine()
        client = try Connection(address: address)
    }

    private static func openConfiguration(name: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:abstract=\(name)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    func nameHasOwner(_ name: String) throws -> Bool {
        let reply = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", method: "NameHasOwner", arguments: [.string(name)])
        return reply.first?.boolValue == true
    }

    /// The bus daemon's process (one thread).
    var pid: pid_t { daemon.pid }

    func stop() { daemon.stop() }
}

/// The real quaverd (next to this binary) on a `BenchBus`, with HOME and the XDG folders in `home` so
/// no user settings or saved state take part.
final class BenchQuaverd {
    let bus: BenchBus
    /// quaverd's client on the bench's bus; a minute for each call, as a queue of 20 000 tracks is slow to build.
    let client: QuaverClient
    /// When the process was spawned (`EventLoop.monotonicMicroseconds`), to time later steps from.
    let spawnedAt: Int64
    /// Microseconds from spawning the process to the bus reporting the MPRIS name owned.
    private(set) var startMicroseconds: Int64 = 0
    private let process: BenchProcess

    init(on bus: BenchBus, output: String, home: URL, arguments: [String] = []) throws {
        self.bus = bus
        client = QuaverClient(connection: bus.client, timeout: 60)
        let start = EventLoop.monotonicMicroseconds
        spawnedAt = start
        process = try BenchProcess(Self.binary, ["--bus-address", bus.address, "--output", output] + arguments,
                                   environment: Self.environment(home: home))
        // Polled every 0.2 ms: the poll's own bus traffic is small next to the daemon's start.
        while !(try bus.nameHasOwner(ControlAPI.busName)) {
            guard EventLoop.monotonicMicroseconds - start < 20_000_000 else {
                throw BenchError("quaverd did not take \(ControlAPI.busName) within 20 s")
            }
            usleep(200)
        }
        startMicroseconds = EventLoop.monotonicMicroseconds - start
    }

    /// quaverd from the same build, next to this binary.
    static var binary: String { BenchProcess.sibling("quaverd") }

    /// Our environment with HOME and the XDG folders quaverd reads and writes in `home`.
    static func environment(home: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        for (key, folder) in [("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")] {
            environment[key] = home.appendingPathComponent(folder).path
        }
        return environment
    }

    var pid: pid_t { process.pid }

    func stop() { process.stop() }
}

/// The floor of a D-Bus poll on this machine now: `dbus-bench-service` (a child of ours on the same EventLoop and
/// DBus layer as quaverd, answering one property and doing nothing else) on the same bus. A poll of it beside
/// each poll of quaverd waits for the same load (other processes, the bus daemon, this client) without
/// quaverd's work.
final class BenchFloorService {
    private let process: BenchProcess
    private let connection: Connection

    init(on bus: BenchBus) throws {
        process = try BenchProcess(BenchProcess.ownProgram, ["dbus-bench-service", "--address", bus.address])
        connection = bus.client
        let start = EventLoop.monotonicMicroseconds
        while !(try bus.nameHasOwner(DBusBenchService.name)) {
            guard EventLoop.monotonicMicroseconds - start < 20_000_000 else {
                throw BenchError("the floor service did not take \(DBusBenchService.name) within 20 s")
            }
            usleep(1000)
        }
    }

    /// One `Get(Position)` through `connection` (the bus's client by default); milliseconds it took.
    func poll(through connection: Connection? = nil) throws -> Double {
        let asked = EventLoop.monotonicMicroseconds
        _ = try Self.get(connection ?? self.connection)
        return Double(EventLoop.monotonicMicroseconds - asked) / 1000
    }

    static func get(_ connection: Connection) throws {
        _ = try connection.call(destination: DBusBenchService.name, path: DBusBenchService.path,
                                interface: "org.freedesktop.DBus.Properties", method: "Get",
                                arguments: [.string(DBusBenchService.interface), .string("Position")], timeout: 10)
    }

    func stop() { process.stop() }
}
