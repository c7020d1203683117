import Foundation
import TestRigs

/// What a benchmark of the real quaverd plays on: a scratch folder, a private bus and an output, and quaverd
/// started on them with its HOME in the scratch folder, so no user settings or saved state take part.
final class BenchRig {
    /// Where quaverd's audio goes.
    enum Output {
        /// pulsesink into a headless PulseAudio null sink, or `fakesink sync=true` when PulseAudio does not start
        /// (said on stdout, with the sink); `chosen` (a `--sink` option) wins either way.
        case sink(chosen: String?)
        /// pulsesink into a headless PulseAudio, which must start: the benchmark records its sinks.
        case pulseAudio
        /// `fakesink sync=true`: no sound server at all.
        case fakesink
    }

    let scratch: TemporaryDirectory
    let bus: BenchBus
    /// The sink element quaverd plays into unless told otherwise.
    let sink: String
    private let pulse: PulseAudioServer?

    /// `admittingOtherUsers`: the bus lets a reference player of another user join (`BenchBus`).
    init(prefix: String, output: Output, admittingOtherUsers: Bool = false) throws {
        scratch = try TemporaryDirectory(prefix: prefix)
        switch output {
        case .sink(let chosen):
            pulse = try? PulseAudioServer()
            sink = chosen ?? (pulse == nil ? "fakesink sync=true" : "pulsesink")
            print("sink: \(sink)\(pulse == nil ? " (PulseAudio did not start)" : " into a headless PulseAudio null sink")")
        case .pulseAudio:
            pulse = try PulseAudioServer()
            sink = "pulsesink"
        case .fakesink:
            pulse = nil
            sink = "fakesink sync=true"
        }
        do {
            bus = try BenchBus(admittingOtherUsers: admittingOtherUsers)
        } catch {
            pulse?.stop()
            throw error
        }
    }

    /// The headless PulseAudio (for its monitors and Snapcast's clients); there with `.pulseAudio`.
    func pulseAudio() throws -> PulseAudioServer {
        guard let pulse else { throw BenchError("no PulseAudio in this benchmark") }
        return pulse
    }

    /// A folder of the scratch one, for quaverd's HOME or the benchmark's files.
    func folder(_ name: String) -> URL { scratch.url.appendingPathComponent(name) }

    /// quaverd on `bus` (the rig's unless told) playing into `output` (the rig's sink unless told), its HOME in
    /// the scratch folder's `home`, with `config` as its config.toml when given.
    func quaverd(home: String = "home", output: String? = nil, config: String? = nil, on bus: BenchBus? = nil,
                 arguments: [String] = []) throws -> BenchQuaverd {
        let home = folder(home)
        if let config {
            let folder = home.appendingPathComponent("config/quaver")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }
        return try BenchQuaverd(on: bus ?? self.bus, output: output ?? sink, home: home, arguments: arguments)
    }

    func stop() {
        bus.stop()
        pulse?.stop()
    }
}

/// Two Snapcast rooms fed by quaverd on a rig's bus, on 127.0.0.1: snapserver with quaver-snapcast-plugin (next to
/// this binary) as its control script, and two snapclients, one a channel, into the rig's PulseAudio null sink `room`.
final class BenchRooms {
    let snapcast: SnapcastRig
    let pulse: PulseAudioServer
    private let rig: BenchRig

    init(on rig: BenchRig) throws {
        self.rig = rig
        pulse = try rig.pulseAudio()
        snapcast = try SnapcastRig(busAddress: rig.bus.address, plugin: BenchProcess.sibling("quaver-snapcast-plugin"))
        try snapcast.startClients(pulse: pulse)
    }

    /// quaverd playing to the rooms, its HOME in the rig's folder `home`.
    func quaverd(home: String) throws -> BenchQuaverd {
        try rig.quaverd(home: home, output: "snapcast", config: "[snapcast]\nport = \(snapcast.sourcePort)\n")
    }

    /// parec of the room sink, both rooms as one stereo file at `SnapcastRig.recordingRate`.
    func record(into file: String) throws -> SpawnedTool {
        try snapcast.record(pulse: pulse, into: file)
    }
}
