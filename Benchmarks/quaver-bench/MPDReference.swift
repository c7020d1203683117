import Foundation
import TestRigs

/// MPD (`mpd`, `mpc` from Debian) indexing the same tree, the reference for the library's first index: MPD reads
/// a missing database at start, then `mpc rescan --wait` reads every file's tags again, timed. MPD runs with a
/// null output on a socket in a temporary folder and is stopped by PID.
enum MPDReference {
    /// Files per second of a full rescan of `music` (`count` files), or nil when MPD is not installed.
    static func filesPerSecond(music: URL, count: Int) throws -> Double? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mpd"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/mpc") else { return nil }
        let folder = try TemporaryDirectory(prefix: "quaver-bench-mpd")
        let socket = folder.url.appendingPathComponent("socket").path
        try """
            music_directory "\(music.path)"
            db_file "\(folder.path)/db"
            state_file "\(folder.path)/state"
            bind_to_address "\(socket)"
            audio_output {
              type "null"
              name "null"
            }
            """.write(to: folder.url.appendingPathComponent("mpd.conf"), atomically: true, encoding: .utf8)
        let mpd = try BenchProcess("/usr/bin/mpd", ["--no-daemon", folder.url.appendingPathComponent("mpd.conf").path])
        defer { mpd.stop() }
        let mpc = { (command: String) throws -> Int32 in
            try ChildProcess.run("/usr/bin/mpc", ["--host=\(socket)", command, "--wait"], timeout: 1800).status
        }
        guard (eventually(timeout: 20) { FileManager.default.fileExists(atPath: socket) }), try mpc("update") == 0 else {
            throw BenchError("mpd did not start or index \(music.path)")
        }
        let started = Date()
        guard try mpc("rescan") == 0 else { throw BenchError("mpc rescan failed") }
        return Double(count) / Date().timeIntervalSince(started)
    }
}
