import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient
import TestRigs

/// Multi-room playback through Snapcast, on 127.0.0.1:
///
///     quaverd ──tcp──▶ snapserver 0.26 ──▶ snapclient 1 ──▶ PulseAudio sink `left`  ─┐ one null sink `room`,
///        ▲                 │ controlscript               snapclient 2 ──▶ sink `right` ─┘ recorded as stereo
///        └──── D-Bus ──── quaver-snapcast-plugin ◀── JSON-RPC client (as Snapweb)
///
/// The offset between the rooms for each click of the click track (median and worst), quaverd's CPU per
/// minute playing to Snapcast against the same quaverd playing to PulseAudio in the same run, and the time
/// from a `Stream.Control pause` on snapserver's control port to PlaybackStatus Paused over MPRIS.
struct SnapcastPlayback: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapcast",
        abstract: "Click offset between two snapclients, CPU to Snapcast vs PulseAudio, Stream.Control pause latency.")

    @Option(help: "Seconds of playback measured for CPU, per output.")
    var seconds = 30.0
    @Option(help: "Stream.Control pauses timed.")
    var pauses = 20

    func run() throws {
        let media = try SnapcastMedia.shared()
        let tone = try media.tone(seconds: Int(seconds) + 30)
        let rig = try BenchRig(prefix: "quaver-snapcast", output: .pulseAudio)
        defer { rig.stop() }
        let rooms = try BenchRooms(on: rig)

        let quaverd = try rooms.quaverd(home: "home-snapcast")
        try measureClickOffsets(quaverd, rooms: rooms, media: media)
        let snapcastCPU = try cpuPerMinute(quaverd, playing: tone)
        try measurePauseLatency(quaverd, rig: rooms.snapcast)
        quaverd.stop()

        let pulsed = try rig.quaverd(home: "home-pulse")
        let pulseCPU = try cpuPerMinute(pulsed, playing: tone)
        pulsed.stop()
        print("quaverd CPU s/min: snapcast \(String(format: "%.2f", snapcastCPU)), pulsesink \(String(format: "%.2f", pulseCPU))")
        BenchRow("quaverd CPU playing to Snapcast, s per min (floor: to PulseAudio)", value: snapcastCPU, floor: pulseCPU,
                 format: "%.2f", target: "—", ok: nil).emit()
    }

    /// The click track into both rooms, recorded on one clock: right − left for each click.
    private func measureClickOffsets(_ quaverd: BenchQuaverd, rooms: BenchRooms, media: SnapcastMedia) throws {
        let file = rooms.snapcast.directory.path + "/room.raw"
        let recorder = try rooms.record(into: file)
        usleep(300_000)
        let played = EventLoop.monotonicMicroseconds
        try quaverd.client.replaceQueue([media.clickTrack.absoluteString], play: true)
        Thread.sleep(forTimeInterval: Double(SnapcastMedia.clickTrackSeconds) + 4)
        let stopped = EventLoop.monotonicMicroseconds
        recorder.stop(signal: SIGINT)
        let recording = try StereoRecording(file: file)
        // parec starts recording a while after it is spawned, but records up to the moment it is stopped
        // (within its 20 ms latency): the recording's last sample dates it.
        let recordingStarted = stopped - Int64(recording.left.count) * 1_000_000 / Int64(SnapcastRig.recordingRate)
        if let heard = recording.left.firstIndex(where: { abs(Int($0)) > 1_000 }) {
            let heardAt = recordingStarted + Int64(heard) * 1_000_000 / Int64(SnapcastRig.recordingRate)
            BenchRow("ReplaceQueue → first sound in the rooms, ms (snapserver buffer 1000 ms)",
                     value: Double(heardAt - played) / 1000, floor: nil, format: "%.0f", target: "—", ok: nil).emit()
        }
        let offsets = recording.clickOffsetsMilliseconds().map(abs)
        guard !offsets.isEmpty else { throw BenchError("no click was heard in both rooms: \(rooms.snapcast.clientLogs)") }
        print("click offsets between the rooms, ms (\(offsets.count) of \(SnapcastMedia.clickCount) clicks in both): "
              + offsets.map { String(format: "%.2f", $0) }.joined(separator: " "))
        BenchRow("click offset between two snapclients, median ms", value: median(offsets), floor: nil, format: "%.2f",
                 target: "< 5", ok: median(offsets) < 5).emit()
        BenchRow("click offset between two snapclients, worst ms", value: offsets.max() ?? 0, floor: nil, format: "%.2f",
                 target: "< 20", ok: (offsets.max() ?? 0) < 20).emit()
        BenchRow("clicks heard in both rooms", value: Double(offsets.count), floor: nil, format: "%.0f",
                 target: "\(SnapcastMedia.clickCount)", ok: offsets.count == SnapcastMedia.clickCount).emit()
    }

    private func cpuPerMinute(_ quaverd: BenchQuaverd, playing tone: URL) throws -> Double {
        try quaverd.client.replaceQueue([tone.absoluteString], play: true)
        try waitFor(quaverd, "Playing")
        Thread.sleep(forTimeInterval: 2)  // start-up and the first buffers are not playback
        return ProcessCounters.cpuPerMinute([quaverd.pid], over: seconds)[0]
    }

    /// `Stream.Control pause` as Snapweb sends it, timed until quaverd says Paused over MPRIS (polled every 1 ms).
    private func measurePauseLatency(_ quaverd: BenchQuaverd, rig: SnapcastRig) throws {
        let control = try SnapcastControl(port: rig.controlPort)
        var samples: [Double] = []
        for _ in 0..<pauses {
            try waitFor(quaverd, "Playing")
            Thread.sleep(forTimeInterval: 0.3)
            let start = EventLoop.monotonicMicroseconds
            try control.request("Stream.Control", ["id": SnapcastRig.streamName, "command": "pause"])
            try waitFor(quaverd, "Paused")
            samples.append(Double(EventLoop.monotonicMicroseconds - start) / 1000)
            try control.request("Stream.Control", ["id": SnapcastRig.streamName, "command": "play"])
        }
        print("Stream.Control pause → Paused, ms: " + samples.map { String(format: "%.1f", $0) }.joined(separator: " "))
        BenchRow("Stream.Control pause → PlaybackStatus Paused, median ms", value: median(samples), floor: nil,
                 format: "%.1f", target: "< 50", ok: median(samples) < 50).emit()
        BenchRow("Stream.Control pause → PlaybackStatus Paused, worst ms", value: samples.max() ?? 0, floor: nil,
                 format: "%.1f", target: "< 200", ok: (samples.max() ?? 0) < 200).emit()
    }

    private func waitFor(_ quaverd: BenchQuaverd, _ status: String, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try quaverd.client.playbackStatus != status {
            guard Date() < deadline else { throw BenchError("quaverd did not reach \(status) in \(timeout) s") }
            usleep(1_000)
        }
    }
}
