import Foundation
import Glibc

/// snapserver on 127.0.0.1 for tests and benchmarks: free ports, its own folder, HOME and server.json, the stream
/// `Quaver` read from a `tcp` source in server mode with `controlscript` set to the built
/// quaver-snapcast-plugin, which reaches quaverd through `DBUS_SESSION_BUS_ADDRESS` (snapserver hands its
/// environment to the plugin). Two snapclients play into PulseAudio (`startClients`). Everything is
/// stopped by PID when released.
public final class SnapcastRig {
    public static let streamName = "Quaver"
    /// What the recording of `room.monitor` holds: client 1 on the left, client 2 on the right, 48 kHz s16le.
    public static let recordingRate = 48_000

    public let directory: TemporaryDirectory
    /// quaverd writes here (`[snapcast] port`).
    public let sourcePort: UInt16
    /// snapclients connect here.
    public let streamPort: UInt16
    /// JSON-RPC over TCP (`Stream.Control`, `Server.GetStatus`).
    public let controlPort: UInt16
    private let environment: [String: String]
    private var server: SpawnedTool?
    private var clients: [SpawnedTool] = []

    /// Starts snapserver; `busAddress` is quaverd's bus, for the plugin.
    public init(busAddress: String, plugin: String) throws {
        directory = try TemporaryDirectory(prefix: "quaver-snapcast")
        sourcePort = try NginxServer.freePort()
        streamPort = try NginxServer.freePort()
        controlPort = try NginxServer.freePort()
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        self.environment = environment
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        // snapserver 0.26 refuses a stream URI whose controlscript has plain slashes ("Stream URI must have a
        // name"); percent-encoded, the path is decoded and run.
        let script = plugin.replacingOccurrences(of: "/", with: "%2F")
        try """
        [server]
        datadir = \(directory.path)/data
        [http]
        enabled = false
        [tcp]
        bind_to_address = 127.0.0.1
        port = \(controlPort)
        [stream]
        bind_to_address = 127.0.0.1
        port = \(streamPort)
        source = tcp://127.0.0.1:\(sourcePort)?name=\(Self.streamName)&mode=server&controlscript=\(script)
        codec = pcm
        [logging]
        sink = stderr
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        try startServer()
    }

    private var configuration: String { directory.path + "/snapserver.conf" }
    private static let raisedPriority = ["nice", "-n", "-10"]

    /// Starts snapserver (again, after `stopServer`) and waits until its source and control ports listen.
    public func startServer() throws {
        // snapserver and snapclient run at a raised priority, as a deployment would (snapserver -d takes one):
        // on a machine busy with builds their late wake-ups otherwise made snapserver jump its timestamps
        // (gaps in the rooms) and the clients under-run. `nice` execs them, so the PID is theirs.
        let server = try SpawnedTool(Self.raisedPriority + ["snapserver", "-c", configuration], environment: environment,
                                     output: directory.path + "/snapserver.out", errors: directory.path + "/snapserver.err")
        self.server = server
        let ports = [sourcePort, controlPort, streamPort]
        guard eventually(timeout: 10, { !server.isRunning || ports.allSatisfy(NginxServer.accepts(port:)) }),
              server.isRunning else {
            throw TestHarnessError("snapserver did not start: \(server.errors)")
        }
    }

    /// Kills snapserver (SIGKILL, by PID): its source socket closes under quaverd, as in a crash.
    public func killServer() {
        server?.stop(signal: SIGKILL)
        server = nil
    }

    public var serverLog: String { server?.errors ?? "" }
    /// What the snapclients wrote, for failure messages.
    public var clientLogs: String { clients.map(\.errors).joined(separator: "\n") }

    /// Two snapclients, each on its own sink of `pulse`: `left` and `right`, remapped onto the left and the
    /// right channel of one null sink `room`, so one recording of `room.monitor` holds both clients on one
    /// clock and an offset between its channels is an offset between the clients.
    public func startClients(pulse: SoundServerRig) throws {
        for arguments in [["load-module", "module-null-sink", "sink_name=room", "channels=2", "rate=48000"],
                          ["load-module", "module-remap-sink", "sink_name=left", "master=room", "channels=1",
                           "master_channel_map=front-left", "channel_map=mono", "remix=no"],
                          ["load-module", "module-remap-sink", "sink_name=right", "master=room", "channels=1",
                           "master_channel_map=front-right", "channel_map=mono", "remix=no"]] {
            let result = try pulse.pactl(arguments)
            guard result.status == 0 else { throw TestHarnessError("pactl \(arguments) failed") }
        }
        var clientEnvironment = pulse.environment
        clientEnvironment["HOME"] = directory.path
        for (number, sink) in [(1, "left"), (2, "right")] {
            clients.append(try SpawnedTool(Self.raisedPriority + ["snapclient", "-h", "127.0.0.1", "-p", "\(streamPort)", "--player", "pulse",
                                            "-s", sink, "--hostID", "quaver-test-\(number)", "-i", "\(number)",
                                            "--logsink", "stderr"],
                                           environment: clientEnvironment, output: directory.path + "/client\(number).out",
                                           errors: directory.path + "/client\(number).err"))
        }
        let control = try SnapcastControl(port: controlPort)
        guard eventually(timeout: 15, { (try? control.connectedClients()) == 2 }) else {
            throw TestHarnessError("the snapclients did not connect: \(clients.map(\.errors))")
        }
    }

    /// Seconds of sound in a recording `record` is making into `file`.
    public static func recordedSeconds(in file: String) -> Double {
        var info = stat()
        return stat(file, &info) == 0 ? Double(info.st_size) / Double(4 * recordingRate) : 0
    }

    /// Starts recording `room.monitor` as raw 48 kHz stereo s16le into `file`; stop it with `stop()`.
    public func record(pulse: SoundServerRig, into file: String) throws -> SpawnedTool {
        try SpawnedTool(["parec", "-d", "room.monitor", "--raw", "--format=s16le", "--rate=\(Self.recordingRate)",
                         "--channels=2", "--latency-msec=20"],
                        environment: pulse.environment, output: file, errors: directory.path + "/parec.err")
    }

    deinit {
        clients.forEach { $0.stop() }
        server?.stop()
    }
}

/// A JSON-RPC 2.0 client of snapserver's control port (newline-delimited JSON over TCP), as Snapweb and the
/// Snapcast apps talk to it.
public final class SnapcastControl {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    public init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { close(fd); throw TestHarnessError("cannot connect to snapserver's control port \(port)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends a request and returns its `result`, skipping the notifications that come meanwhile.
    @discardableResult
    public func request(_ method: String, _ params: [String: Any]? = nil, timeout: Double = 10) throws -> Any {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { message["params"] = params }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(UInt8(ascii: "\n"))
        _ = data.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let line = nextLine(until: deadline),
                  let reply = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  reply["id"] as? Int == id else { continue }
            if let error = reply["error"] { throw TestHarnessError("\(method): \(error)") }
            return reply["result"] ?? NSNull()
        }
        throw TestHarnessError("\(method): no reply from snapserver in \(timeout) s")
    }

    /// `Server.GetStatus` → the stream named `id`.
    public func stream(_ id: String = SnapcastRig.streamName) throws -> [String: Any]? {
        let status = try request("Server.GetStatus") as? [String: Any]
        let streams = (status?["server"] as? [String: Any])?["streams"] as? [[String: Any]] ?? []
        return streams.first { $0["id"] as? String == id }
    }

    /// How many clients snapserver sees connected.
    public func connectedClients() throws -> Int {
        let status = try request("Server.GetStatus") as? [String: Any]
        let groups = (status?["server"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        return groups.flatMap { $0["clients"] as? [[String: Any]] ?? [] }.filter { $0["connected"] as? Bool == true }.count
    }

    private func nextLine(until deadline: Date) -> [UInt8]? {
        while Date() < deadline {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...end) }
                return Array(buffer[..<end])
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { buffer += chunk[0..<count] } else if count == 0 { return nil }
        }
        return nil
    }
}

/// Raw interleaved stereo s16le, as `SnapcastRig.record` writes it.
public struct StereoRecording {
    public let left: [Int16]
    public let right: [Int16]

    public init(file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var left: [Int16] = [], right: [Int16] = []
        left.reserveCapacity(bytes.count / 4)
        right.reserveCapacity(bytes.count / 4)
        for frame in stride(from: 0, to: bytes.count - 3, by: 4) {
            left.append(Int16(bitPattern: UInt16(bytes[frame]) | UInt16(bytes[frame + 1]) << 8))
            right.append(Int16(bitPattern: UInt16(bytes[frame + 2]) | UInt16(bytes[frame + 3]) << 8))
        }
        self.left = left
        self.right = right
    }

    /// Sample indexes where a click starts: the level first passes `threshold` after at least `quiet`
    /// samples below it.
    public static func clicks(in samples: [Int16], threshold: Int16 = 12_000, quiet: Int = 4_800) -> [Int] {
        var found: [Int] = [], last = -quiet
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > Int(threshold) {
            if index - last >= quiet { found.append(index) }
            last = index
        }
        return found
    }

    /// For each click on the left, the nearest one on the right within `window` samples: right − left, in ms.
    public func clickOffsetsMilliseconds(window: Int = 12_000) -> [Double] {
        let right = Self.clicks(in: self.right)
        return Self.clicks(in: left).compactMap { click in
            guard let nearest = right.min(by: { abs($0 - click) < abs($1 - click) }), abs(nearest - click) <= window
            else { return nil }
            return Double(nearest - click) * 1000 / Double(SnapcastRig.recordingRate)
        }
    }

    /// The runs of at least `minimum` samples quieter than `level` between `start` and `end` (sample indexes):
    /// each one's length and where it ends.
    public static func quietRuns(in samples: [Int16], from start: Int, to end: Int, level: Int16 = 60,
                                 minimum: Int = 1) -> [(length: Int, end: Int)] {
        var runs: [(length: Int, end: Int)] = [], run = 0
        for index in max(0, start)..<min(samples.count, end) {
            if abs(Int(samples[index])) < Int(level) { run += 1; continue }
            if run >= minimum { runs.append((run, index)) }
            run = 0
        }
        if run >= minimum { runs.append((run, min(samples.count, end))) }
        return runs
    }

    /// The longest run of samples quieter than `level` between `start` and `end` (sample indexes).
    public static func longestQuietRun(in samples: [Int16], from start: Int, to end: Int, level: Int16 = 60) -> Int {
        quietRuns(in: samples, from: start, to: end, level: level).map(\.length).max() ?? 0
    }

    /// Root mean square of `samples[range]`, 0…32768.
    public static func level(_ samples: [Int16], _ range: Range<Int>) -> Double {
        let slice = samples[max(0, range.lowerBound)..<min(samples.count, range.upperBound)]
        guard !slice.isEmpty else { return 0 }
        return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
    }
}

/// Media for Snapcast tests and benchmarks, made with sox and flac (before PulseAudio starts: they run
/// through Foundation's Process). The click track: 4 s of a quiet 440 Hz tone (to hear that the track plays), then `clickCount` clicks of
/// 2 ms, one every half second, at 48 kHz, tagged so snapserver's metadata can be checked.
public final class SnapcastMedia {
    public static let title = "Snapcast Click Track"
    public static let artist = "The Quaver Rooms"
    public static let clickCount = 20
    public static let clickTrackSeconds = 14
    public let directory: TemporaryDirectory
    public var clickTrack: URL { directory.url.appendingPathComponent("clicks.flac") }
    public var lead: URL { directory.url.appendingPathComponent("lead.flac") }

    private static var made: SnapcastMedia?
    public static func shared() throws -> SnapcastMedia {
        if let made { return made }
        let media = try SnapcastMedia()
        made = media
        return media
    }

    private init() throws {
        directory = try TemporaryDirectory(prefix: "quaver-snapcast-media")
        let path = directory.path
        let format = ["-r", "48000", "-c", "2", "-b", "16"]
        try Fixtures.run("sox", ["-q", "-n"] + format + ["\(path)/lead.wav", "synth", "4", "sine", "440", "vol", "0.1"])
        try Fixtures.run("sox", ["-q", "-n"] + format + ["\(path)/period.wav", "synth", "0.002", "square", "1000", "vol", "0.9",
                                                          "pad", "0", "0.498"])
        try Fixtures.run("sox", ["-q", "\(path)/period.wav", "\(path)/clicks.wav", "repeat", "\(Self.clickCount - 1)"])
        try Fixtures.run("sox", ["-q", "\(path)/lead.wav", "\(path)/clicks.wav", "\(path)/track.wav"])
        try Fixtures.run("flac", ["-s", "-f", "-T", "TITLE=\(Self.title)", "-T", "ARTIST=\(Self.artist)",
                                  "-o", clickTrack.path, "\(path)/track.wav"])
        try Fixtures.run("flac", ["-s", "-f", "-o", lead.path, "\(path)/lead.wav"])
    }

    /// A 44.1 kHz stereo tone of `seconds`, as FLAC (made on first use: the benchmarks' long playback).
    public func tone(seconds: Int) throws -> URL {
        let tone = directory.url.appendingPathComponent("tone-\(seconds).flac")
        if !FileManager.default.fileExists(atPath: tone.path) {
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", tone.path, "synth", "\(seconds)",
                                     "sine", "440", "vol", "0.3"])
        }
        return tone
    }
}
