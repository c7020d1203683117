import Foundation
import Glibc

/// What a sink of a test's sound server plays, recorded from its monitor (parec: 48 kHz mono s16le, 10 ms
/// latency) into the server's folder until `stop()`. The recording's own length, not the wall clock, says how
/// much was heard: a new null sink runs slow for its first second (PulseAudio), and a loaded machine delays parec.
public final class MonitorRecording {
    public static let rate = 48_000
    public let file: String
    private let parec: SpawnedTool

    public init(sink: String, on sound: SoundServerRig) throws {
        file = sound.directory.path + "/\(sink).raw"
        parec = try SpawnedTool(["parec", "-d", "\(sink).monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)",
                                 "--channels=1", "--latency-msec=10"],
                                environment: sound.environment, output: file, errors: sound.directory.path + "/parec-\(sink).err")
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

    /// Stops parec; the samples recorded.
    public func stop() throws -> [Int16] {
        parec.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
