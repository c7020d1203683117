import ArgumentParser
import DBus
import EventLoop
import Foundation

/// Round-trip latency of `Properties.Get` on our exported object, against the bus floor (the daemon's own
/// `GetId` and `Peer.Ping`), all on one private bus started for the run.
///
///     this process (client, blocking calls) ── private dbus-daemon ── `dbus-bench-service` child (EventLoop)
struct DBusRoundTrip: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbus-round-trip",
        abstract: "Time Properties.Get on a Quaver D-Bus service against the bus daemon's own round trip.")

    @Option(help: "Calls per measurement.")
    var calls = 10_000

    func run() throws {
        let daemon = try BenchProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        defer { daemon.stop() }
        let address = try daemon.firstLine()
        let service = try BenchProcess(BenchProcess.ownProgram, ["dbus-bench-service", "--address", address])
        defer { service.stop() }
        let client = try Connection(address: address)
        try waitForOwner(of: DBusBenchService.name, on: client)

        let path = DBusBenchService.path
        let busPath: ObjectPath = "/org/freedesktop/DBus"
        let bus = "org.freedesktop.DBus"
        report("Properties.Get on the service", try measure {
            _ = try client.call(destination: DBusBenchService.name, path: path, interface: "org.freedesktop.DBus.Properties",
                                method: "Get", arguments: [.string(DBusBenchService.interface), .string("Position")])
        })
        report("Peer.Ping on the service (answered inside libdbus)", try measure {
            _ = try client.call(destination: DBusBenchService.name, path: path, interface: "org.freedesktop.DBus.Peer",
                                method: "Ping")
        })
        report("GetId on the bus daemon (floor)", try measure {
            _ = try client.call(destination: bus, path: busPath, interface: bus, method: "GetId")
        })
        report("Peer.Ping on the bus daemon (floor)", try measure {
            _ = try client.call(destination: bus, path: busPath, interface: "org.freedesktop.DBus.Peer", method: "Ping")
        })
    }

    private func measure(_ body: () throws -> Void) throws -> [Int64] { try timeCalls(calls, warmUp: 200, body) }

    private func report(_ label: String, _ samples: [Int64]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Int64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print("\(label): \(samples.count) calls, p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs, "
            + "max \(sorted.last ?? 0) µs")
    }

    private func waitForOwner(of name: String, on client: Connection) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let reply = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "NameHasOwner", arguments: [.string(name)])
            if reply.first?.boolValue == true { return }
            usleep(10_000)
        }
        throw ValidationError("the benchmark service did not take \(name) within 10 s")
    }
}

/// The service side of `dbus-round-trip`, run as a child process; hidden from help.
struct DBusBenchService: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dbus-bench-service", shouldDisplay: false)
    static let name = "org.quaver.Bench"
    static let path: ObjectPath = "/org/quaver/Bench"
    static let interface = "org.quaver.Bench"

    @Option var address: String

    func run() throws {
        let connection = try Connection(address: address)
        try connection.requestName(DBusBenchService.name)
        var position: Int64 = 0
        connection.export(ExportedObject(path: DBusBenchService.path, interfaces: [
            InterfaceDescription(name: DBusBenchService.interface, properties: [
                .init(name: "Position", type: "x") {
                    position += 1
                    return .int64(position)
                },
            ]),
        ]))
        connection.onDisconnect = { EventLoop.main.quit() }
        let term = EventLoop.main.onSignal(SIGTERM) { EventLoop.main.quit() }
        EventLoop.main.run()
        term.cancel()
    }
}

/// A child process of the benchmark, stopped by PID.
final class BenchProcess {
    /// This program: its helper modes (`dbus-bench-service`, `mpris-hammer`, `queue-scale-probe`, …) run as children.
    static let ownProgram = Bundle.main.executablePath ?? CommandLine.arguments[0]

    /// A program of the same build, next to this one (`quaverd`, `quaver`, `quaver-snapcast-plugin`).
    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: ownProgram).deletingLastPathComponent().appendingPathComponent(name).path
    }

    private let process = Process()
    private let output = Pipe()

    /// `environment`: the child's whole environment (a private HOME for quaverd); by default ours.
    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = output
        try process.run()
    }

    /// The first line the child prints (dbus-daemon's address).
    func firstLine() throws -> String {
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ValidationError("\(process.executableURL!.path) exited early") }
            bytes += chunk
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    var pid: pid_t { process.processIdentifier }
    private var stopped = false

    /// SIGTERM and reap with waitpid: Foundation's `waitUntilExit` never saw quaverd exit once a
    /// pulseaudio child ran (TestRigs' SpawnedTool notes the same).
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
