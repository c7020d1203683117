import Foundation
import Glibc

/// What a sink of a test's sound server plays, recorded from its monitor (parec: 48 kHz mono s16le, 10 ms
/// latency) into the server's folder until `stop()`. The recording's own length, not the wall clock, says how
/// much was heard: a new null sink runs slow for its first second (PulseAudio), and a loaded machine delays parec.
public final class MonitorRecording {
    public static let rate = 48_000
    public let file: String
    private let parec: SpawnedTool
    private let growth: GrowthLog

    public init(sink: String, on sound: SoundServerRig) throws {
        file = sound.directory.path + "/\(sink).raw"
        parec = try SpawnedTool(["parec", "-d", "\(sink).monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)",
                                 "--channels=1", "--latency-msec=10"],
                                environment: sound.environment, output: file, errors: sound.directory.path + "/parec-\(sink).err")
        growth = GrowthLog(of: file)
    }

    /// Seconds of sound in the file so far.
    public var seconds: Double {
        var info = stat()
        return stat(file, &info) == 0 ? Double(info.st_size) / Double(2 * Self.rate) : 0
    }

    /// Waits until the file holds `seconds` of sound.
    public func waitUntilRecorded(_ seconds: Double, timeout: Double = 30) throws {
        guard eventually(timeout: timeout, { self.seconds >= seconds }) else {
            throw TestHarnessError("\(file): \(self.seconds) s of \(seconds) recorded in \(timeout) s; parec: \(parec.errors)")
        }
    }

    /// How many seconds of sound the recording lost between its second `from` and its end: how much less it
    /// holds than the monotonic clock says passed. A PipeWire client held up past a cycle of the graph (5 ms here)
    /// loses that cycle's sound. parec's is pipewire-pulse, which also plays quaverd's stream: held up, it plays
    /// silence there and drops that silence from the recording, which then runs on without a trace, every sound
    /// after it heard that much earlier than it was (45 ms of pipewire-pulse stopped during a fade out of a second
    /// read as a fade of 877 ms). The recording's lead over the clock is read where it is greatest, just after a
    /// write, over the second before `from` and over the last half second.
    public func secondsLost(after from: Double) -> Double {
        let points = growth.points
        guard let first = points.first else { return 0 }
        let leads = points.map { point in
            (seconds: Double(point.bytes) / Double(2 * Self.rate),
             lead: Double(point.bytes) / Double(2 * Self.rate) - Double(point.nanoseconds - first.nanoseconds) / 1e9)
        }
        guard let end = leads.last?.seconds,
              let before = leads.filter({ (from - 1...from).contains($0.seconds) }).map(\.lead).max(),
              let after = leads.filter({ $0.seconds >= end - 0.5 }).map(\.lead).max() else { return 0 }
        return before - after
    }

    /// Stops parec; the samples recorded.
    public func stop() throws -> [Int16] {
        parec.stop()
        growth.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}

/// A file's length in bytes each time it grew, with when (the monotonic clock's nanoseconds): read every millisecond
/// on a thread of its own until `finish()`, or until the log is released.
private final class GrowthLog: @unchecked Sendable {
    private let lock = NSLock()
    private var logging = true
    private var logged: [(nanoseconds: UInt64, bytes: Int)] = []
    private let finished = DispatchSemaphore(value: 0)

    init(of file: String) {
        Thread.detachNewThread { [weak self] in
            var last = 0
            while let log = self, log.lock.withLock({ log.logging }) {
                var info = stat()
                let bytes = stat(file, &info) == 0 ? Int(info.st_size) : 0
                if bytes != last {
                    let now = DispatchTime.now().uptimeNanoseconds
                    log.lock.withLock { log.logged.append((now, bytes)) }
                    last = bytes
                }
                usleep(1_000)
            }
            self?.finished.signal()
        }
    }

    var points: [(nanoseconds: UInt64, bytes: Int)] { lock.withLock { logged } }

    /// Stops reading, once the thread has read for the last time.
    func finish() {
        lock.withLock { logging = false }
        finished.wait()
    }
}
