import ArgumentParser
import DBus
import EventLoop
import Foundation

/// MPRIS latency of the real quaverd (playing into `fakesink sync=true`) on a private bus:
/// OpenUri until a client sees PlaybackStatus Playing, and GetAll(Player) while playing, alone and
/// with `mpris-hammer` child processes calling GetAll as fast as they can.
struct MPRISLatency: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpris-latency",
        abstract: "Time OpenUri → Playing and GetAll(Player) on the real quaverd, alone and under load.")

    static let name = "org.mpris.MediaPlayer2.quaver"
    static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    @Option(help: "A decodable audio file to open (default: the first demo track).")
    var file = "demo/01 Morning Arpeggio.flac"
    @Option(help: "OpenUri measurements.")
    var opens = 30
    @Option(help: "GetAll calls per measurement.")
    var calls = 3_000
    @Option(help: "Client processes calling GetAll during the loaded measurement.")
    var clients = 4

    func run() throws {
        let binaries = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
        let daemon = try BenchProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"])
        defer { daemon.stop() }
        let address = try daemon.firstLine()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("quaver-mpris-latency.\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let quaverd = try BenchProcess(binaries.appendingPathComponent("quaverd").path,
                                       ["--bus-address", address, "--output", "fakesink sync=true"],
                                       environment: QuaverdUnderTest.environment(home: home))
        defer { quaverd.stop() }
        let client = try Connection(address: address)
        try waitForQuaverd(client)
        let uri = URL(fileURLWithPath: file).standardizedFileURL.absoluteString

        report("OpenUri → PropertiesChanged(PlaybackStatus=Playing)", try measureOpen(uri, client))
        report("GetAll(Player) while playing, alone", try measureGetAll(client))
        let hammers = try (0..<clients).map { _ in
            try BenchProcess(Bundle.main.executablePath ?? CommandLine.arguments[0], ["mpris-hammer", "--address", address])
        }
        defer { hammers.forEach { $0.stop() } }
        usleep(300_000)
        report("GetAll(Player) while playing, \(clients) clients calling GetAll flat out", try measureGetAll(client))
    }

    private func measureOpen(_ uri: String, _ client: Connection) throws -> [Int64] {
        var playingAt: Int64?
        let subscription = try client.subscribe(rule: MatchRule(sender: Self.name, interface: "org.freedesktop.DBus.Properties",
                                                                member: "PropertiesChanged", path: Self.path, arg0: Self.player)) {
            signal in
            if signal.arguments.count > 1, signal.arguments[1].dictionaryValue?["PlaybackStatus"]?.stringValue == "Playing" {
                playingAt = EventLoop.monotonicMicroseconds
            }
        }
        defer { subscription.cancel() }
        EventLoop.main.run(until: { false }, timeout: 0.3)
        var samples: [Int64] = []
        for _ in 0..<opens {
            _ = try client.call(destination: Self.name, path: Self.path, interface: Self.player, method: "Stop")
            EventLoop.main.run(until: { false }, timeout: 0.05)
            playingAt = nil
            let start = EventLoop.monotonicMicroseconds
            _ = try client.call(destination: Self.name, path: Self.path, interface: Self.player, method: "OpenUri",
                                arguments: [.string(uri)])
            guard EventLoop.main.run(until: { playingAt != nil }, timeout: 10), let end = playingAt else {
                throw ValidationError("no PlaybackStatus Playing within 10 s of OpenUri")
            }
            samples.append(end - start)
        }
        return samples
    }

    private func measureGetAll(_ client: Connection) throws -> [Int64] {
        try (0..<calls).map { _ in
            let start = EventLoop.monotonicMicroseconds
            _ = try client.call(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                method: "GetAll", arguments: [.string(Self.player)])
            return EventLoop.monotonicMicroseconds - start
        }
    }

    private func waitForQuaverd(_ client: Connection) throws {
        for _ in 0..<1000 {
            let owned = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "NameHasOwner",
                                        arguments: [.string(Self.name)])
            if owned.first?.boolValue == true { return }
            usleep(10_000)
        }
        throw ValidationError("quaverd did not take \(Self.name) within 10 s")
    }

    private func report(_ label: String, _ samples: [Int64]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Int64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        print("\(label): \(samples.count) samples, p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs, "
            + "max \(sorted.last ?? 0) µs")
    }
}

/// Load for `mpris-latency`: calls GetAll(Player) on quaverd back to back until stopped. Hidden from help.
struct MPRISHammer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mpris-hammer", shouldDisplay: false)
    @Option var address: String

    func run() throws {
        let client = try Connection(address: address)
        while true {
            _ = try client.call(destination: MPRISLatency.name, path: MPRISLatency.path,
                                interface: "org.freedesktop.DBus.Properties", method: "GetAll",
                                arguments: [.string(MPRISLatency.player)])
        }
    }
}
