import ControlAPI
import DBus
import EventLoop
import Foundation
import TestRigs

/// VLC 3 playing one file on a `BenchBus`, as the reference for quaverd's MPRIS answers in the same
/// harness (same bus daemon, same client, same calls). VLC refuses to run as root: as root it runs as
/// `nobody` (setpriv), on a bus that admits other users, with a copy of the file and a HOME it can use.
final class VLCReference {
    static let busName = "org.mpris.MediaPlayer2.vlc"
    static let executable = "/usr/bin/cvlc"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    private let process: BenchProcess
    private let folder: TemporaryDirectory

    init(on bus: BenchBus, playing file: URL) throws {
        folder = try TemporaryDirectory(prefix: "quaver-bench-vlc")
        let copy = folder.url.appendingPathComponent("track." + file.pathExtension)
        try FileManager.default.copyItem(at: file, to: copy)
        chmod(folder.path, 0o777)
        chmod(copy.path, 0o644)
        let vlc = [Self.executable, "-I", "dummy", "--control", "dbus", "--aout", "dummy", "--no-video", "--loop",
                   copy.path]
        let command = geteuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + vlc : vlc
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["HOME"] = folder.path
        environment["XDG_CONFIG_HOME"] = folder.path
        environment["XDG_CACHE_HOME"] = folder.path
        process = try BenchProcess(command[0], Array(command.dropFirst()), environment: environment)
        let start = EventLoop.monotonicMicroseconds
        while try playbackStatus(bus) != "Playing" {
            guard EventLoop.monotonicMicroseconds - start < 20_000_000 else {
                stop()
                throw BenchError("VLC did not play \(copy.path) on the bench bus within 20 s")
            }
            usleep(50_000)
        }
    }

    func getAllPlayer(_ bus: BenchBus) throws {
        _ = try bus.client.call(destination: Self.busName, path: "/org/mpris/MediaPlayer2",
                                interface: "org.freedesktop.DBus.Properties", method: "GetAll",
                                arguments: [.string("org.mpris.MediaPlayer2.Player")])
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder.url)
    }

    /// `nil` until VLC owns its name.
    private func playbackStatus(_ bus: BenchBus) throws -> String? {
        guard try bus.nameHasOwner(Self.busName) else { return nil }
        let reply = try bus.client.call(destination: Self.busName, path: "/org/mpris/MediaPlayer2",
                                        interface: "org.freedesktop.DBus.Properties", method: "Get",
                                        arguments: [.string("org.mpris.MediaPlayer2.Player"), .string(PlayerProperty.playbackStatus)])
        return reply.first?.unwrapped.stringValue
    }
}
