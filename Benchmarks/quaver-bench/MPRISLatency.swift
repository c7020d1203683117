import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient

/// MPRIS latency of the real quaverd (playing into `fakesink sync=true`) on a private bus: OpenUri until
/// the position advances, Next until the new Metadata is signalled, Get and GetAll alone and while
/// `mpris-hammer` child processes call GetAll flat out, against the bus daemon's own round trip.
struct MPRISLatency: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mpris-latency",
        abstract: "Time OpenUri → position advancing, Next → Metadata and Get/GetAll on the real quaverd, alone and under load.")

    @Option(help: "A decodable audio file to open (default: the first demo track).")
    var file = "demo/01 Morning Arpeggio.flac"
    @Option(help: "OpenUri and Next measurements.")
    var opens = 20
    @Option(help: "Calls per Get/GetAll measurement.")
    var calls = 3_000
    @Option(help: "Calls to each in a round: the bus alone, Get, GetAll and VLC's GetAll take turns by rounds.")
    var round = 100
    @Option(help: "Client processes calling GetAll during the loaded measurement.")
    var clients = 4
    @Option(help: "Seconds the clients call GetAll.")
    var loadSeconds = 5.0

    func run() throws {
        let rig = try BenchRig(prefix: "quaver-mpris-latency", output: .fakesink, admittingOtherUsers: VLCReference.isInstalled)
        defer { rig.stop() }
        let bus = rig.bus
        let quaverd = try rig.quaverd()
        defer { quaverd.stop() }
        let uri = URL(fileURLWithPath: file).standardizedFileURL.absoluteString

        let advancing = try measureOpen(uri, quaverd)
        BenchRow("OpenUri → position advancing, ms (FLAC)", value: median(advancing), floor: nil, format: "%.1f",
                 target: "< 30", ok: median(advancing) < 30).emit()
        let next = try measureNext(uri, quaverd)
        BenchRow("Next → new Metadata signalled, ms", value: median(next), floor: nil, format: "%.1f",
                 target: "< 50", ok: median(next) < 50).emit()
        let floor = try measureCalls(quaverd, bus)
        try measureUnderLoad(quaverd, floor: floor)
    }

    /// The bus alone, Get and GetAll on quaverd, and GetAll on VLC playing the same file, taking turns by rounds
    /// (`TimedSeries.measureInterleaved`); their rows, and the bus's samples (the floor) for the loaded rows.
    /// VLC stops before the load, as it played no part in it.
    private func measureCalls(_ quaverd: BenchQuaverd, _ bus: BenchBus) throws -> [Int64] {
        let vlc = try startVLC(bus)
        defer { vlc?.stop() }
        var series = [
            TimedSeries("bus alone") {
                _ = try bus.client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "GetId")
            },
            TimedSeries("Get") { _ = try quaverd.client.playbackStatus },
            TimedSeries("GetAll") { try getAllPlayer(quaverd) },
        ]
        if let vlc { series.append(TimedSeries("VLC GetAll") { try vlc.getAllPlayer(bus) }) }
        try TimedSeries.measureInterleaved(&series, calls: calls, round: round)
        let floor = series[0].samples, vlcSeries = series.count > 3 ? series[3] : nil
        for timed in series[1...] {
            for (name, p) in [("p50", 0.5), ("p99", 0.99)] { emitLatencyRow(timed, name, p, floor: floor, vlc: vlcSeries) }
        }
        if let vlcSeries { emitRoundsAtOrUnderVLC(getAll: series[2], vlc: vlcSeries) }
        return floor
    }

    /// Stop, then OpenUri and poll Position about every millisecond until it is past zero.
    private func measureOpen(_ uri: String, _ quaverd: BenchQuaverd) throws -> [Double] {
        try (0..<opens).map { _ in
            try quaverd.client.stop()
            usleep(50_000)
            let start = EventLoop.monotonicMicroseconds
            try quaverd.client.openURI(uri)
            while (try quaverd.client.position) <= 0 {
                guard EventLoop.monotonicMicroseconds - start < 10_000_000 else {
                    throw BenchError("the position did not advance within 10 s of OpenUri")
                }
                usleep(1000)
            }
            return Double(EventLoop.monotonicMicroseconds - start) / 1000
        }
    }

    /// A queue of `opens + 1` copies of the file; each Next until PropertiesChanged carries a Metadata
    /// with a new mpris:trackid.
    private func measureNext(_ uri: String, _ quaverd: BenchQuaverd) throws -> [Double] {
        try quaverd.client.replaceQueue(Array(repeating: uri, count: opens + 1), play: true)
        var trackID: String?
        var changedAt: Int64?
        let rule = MatchRule(sender: ControlAPI.busName, interface: ControlAPI.propertiesInterface, member: "PropertiesChanged",
                             path: QuaverClient.path, arg0: ControlAPI.playerInterface)
        let subscription = try quaverd.bus.client.subscribe(rule: rule) { signal in
            guard signal.arguments.count > 1,
                  let id = signal.arguments[1].dictionaryValue?[PlayerProperty.metadata]?.unwrapped.dictionaryValue?[MetadataKey.trackID]?
                      .unwrapped.objectPathValue?.description, id != trackID else { return }
            trackID = id
            changedAt = EventLoop.monotonicMicroseconds
        }
        defer { subscription.cancel() }
        EventLoop.main.run(until: { false }, timeout: 0.5)
        return try (0..<opens).map { _ in
            changedAt = nil
            let start = EventLoop.monotonicMicroseconds
            try quaverd.client.next()
            guard EventLoop.main.run(until: { changedAt != nil }, timeout: 10), let end = changedAt else {
                throw BenchError("no new Metadata within 10 s of Next")
            }
            EventLoop.main.run(until: { false }, timeout: 0.05)
            return Double(end - start) / 1000
        }
    }

    /// GetAll alone in this client while `clients` hammers call it flat out; their calls per second, and
    /// how far the position drifted from the wall clock meanwhile (an underrun stalls the position).
    private func measureUnderLoad(_ quaverd: BenchQuaverd, floor: [Int64]) throws {
        try quaverd.client.play()
        let binary = BenchProcess.ownProgram
        let positionBefore = try quaverd.client.position, started = EventLoop.monotonicMicroseconds
        let hammers = try (0..<clients).map { _ in
            try BenchProcess(binary, ["mpris-hammer", "--address", quaverd.bus.address, "--seconds", "\(loadSeconds)"])
        }
        defer { hammers.forEach { $0.stop() } }
        usleep(300_000)
        let loaded = try timeCalls { try getAllPlayer(quaverd) }
        let perSecond = try hammers.map { Double(try $0.firstLine()) ?? 0 }.reduce(0, +) / loadSeconds
        let drift = Double((try quaverd.client.position) - positionBefore
                           - (EventLoop.monotonicMicroseconds - started)) / 1000
        for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
            BenchRow("GetAll \(name) with \(clients) clients flat out, ms", value: percentileMilliseconds(loaded, p),
                     floor: percentileMilliseconds(floor, p), format: "%.3f", target: "—", ok: nil).emit()
        }
        BenchRow("GetAll calls/s by \(clients) clients", value: perSecond, floor: nil, format: "%.0f",
                 target: "≥ 10000", ok: perSecond >= 10_000).emit()
        BenchRow("position drift vs wall clock under load, ms", value: drift, floor: 0, format: "%.1f",
                 target: "abs < 50 (no underrun)", ok: abs(drift) < 50).emit()
    }

    /// Get's and GetAll's rows; GetAll's p50 has VLC's in the same rounds as its target, and VLC's own rows
    /// follow GetAll's.
    private func emitLatencyRow(_ timed: TimedSeries, _ name: String, _ p: Double, floor: [Int64], vlc: TimedSeries?) {
        let value = percentileMilliseconds(timed.samples, p)
        var target = name == "p99" ? "≤ 0.6" : "—"
        var ok: Bool? = name == "p99" ? value <= 0.6 : nil
        if timed.name == "VLC GetAll" {
            (target, ok) = ("—", nil)
        } else if timed.name == "GetAll", name == "p50", let vlc {
            let reference = percentileMilliseconds(vlc.samples, p)
            (target, ok) = (String(format: "≤ VLC (%.3f)", reference), value <= reference)
        }
        let label = timed.name == "VLC GetAll" ? "VLC GetAll \(name) while playing, same bus and client, ms"
            : "\(timed.name) \(name) while playing, 1 client, ms"
        BenchRow(label, value: value, floor: percentileMilliseconds(floor, p), format: "%.3f", target: target, ok: ok).emit()
    }

    /// In how many rounds GetAll's median was at or under VLC's in the same round: the run's p50 says who was
    /// faster overall, this says how steadily.
    private func emitRoundsAtOrUnderVLC(getAll: TimedSeries, vlc: TimedSeries) {
        let rounds = zip(getAll.roundMedians, vlc.roundMedians)
        let atOrUnder = rounds.filter { $0 <= $1 }.count
        BenchRow("GetAll rounds of \(round) calls with p50 ≤ VLC's (of \(getAll.roundMedians.count))",
                 value: Double(atOrUnder), floor: nil, format: "%.0f", target: "—", ok: nil).emit()
    }

    /// VLC playing the same file on the same bus, as the reference for GetAll; `nil` (and said) without VLC.
    /// quaverd keeps playing meanwhile, so both are measured on a machine doing the same.
    private func startVLC(_ bus: BenchBus) throws -> VLCReference? {
        guard VLCReference.isInstalled else {
            print("VLC: \(VLCReference.executable) is not installed (Debian: vlc-bin, vlc-plugin-base); no reference row")
            return nil
        }
        return try VLCReference(on: bus, playing: URL(fileURLWithPath: file).standardizedFileURL)
    }

    private func timeCalls(_ body: () throws -> Void) throws -> [Int64] {
        try quaver_bench.timeCalls(calls, warmUp: 100, body)
    }
}

/// GetAll(Player) of quaverd, the call VLC's row makes (`VLCReference.getAllPlayer`): the same message on the
/// same connection, the reply decoded and nothing more (the client's dictionary of it cost quaverd's row alone).
private func getAllPlayer(_ quaverd: BenchQuaverd) throws {
    _ = try quaverd.bus.client.call(destination: ControlAPI.busName, path: QuaverClient.path,
                                    interface: ControlAPI.propertiesInterface, method: "GetAll",
                                    arguments: [.string(ControlAPI.playerInterface)])
}

/// Load for `mpris-latency`: calls GetAll(Player) on quaverd back to back for `seconds`, then prints how
/// many calls it made. Hidden from help.
struct MPRISHammer: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mpris-hammer", shouldDisplay: false)
    @Option var address: String
    @Option var seconds: Double

    func run() throws {
        let client = QuaverClient(connection: try Connection(address: address))
        let end = EventLoop.monotonicMicroseconds + Int64(seconds * 1_000_000)
        var count = 0
        while EventLoop.monotonicMicroseconds < end {
            _ = try client.playerProperties()
            count += 1
        }
        print(count)
    }
}
