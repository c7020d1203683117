import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import QuaverClient
import TestRigs

/// How long a GNOME desktop user waits, after quaverd starts, for the media card to show the track as it is:
/// title, artist and the cover image loaded. GNOME Shell 43 runs headless (TestRigs' GnomeShell) with
/// the date menu open; the card is read through Eval every 5 ms.
struct GnomeCard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gnome-card",
        abstract: "Time from quaverd's start to GNOME Shell's media card showing title, artist and cover.")

    @Option(help: "quaverd starts to time.")
    var runs = 5

    private static let title = "Bench Card"
    private static let artist = "The Benchmarks"

    func run() throws {
        guard GnomeShell.isInstalled else {
            print("gnome-shell is not installed (scripts/deps test installs it): not measured")
            return
        }
        let shell = try GnomeShell()
        defer { shell.stop() }
        let card = GnomeMediaCard(busName: ControlAPI.busName, in: shell)
        try card.openMenu()  // the shell loads a cover only while the card is on screen
        let folder = try TemporaryDirectory(prefix: "quaver-bench-gnome")
        let track = folder.url.appendingPathComponent("track.flac")
        try Fixtures.shared().taggedFLAC(at: track, title: Self.title, artist: Self.artist, album: "Bench", seconds: 30)
        let client = try Connection(address: shell.sessionBus.address)
        defer { client.close() }

        var named: [Double] = [], served: [Double] = [], complete: [Double] = []
        for _ in 1...runs {
            let times = try timeOneStart(of: track, shell: shell, card: card, client: client)
            named.append(times.named)
            served.append(times.served)
            complete.append(times.complete)
        }
        print(String(format: "quaverd start → name on the bus: median %.0f ms; → first GetAll answered: median %.0f ms; "
                     + "→ complete media card: median %.0f ms, max %.0f ms (%d starts)",
                     median(named), median(served), median(complete), complete.max() ?? 0, runs))
        BenchRow("quaverd start to complete GNOME media card, ms (floor: to its first answer)", value: median(complete),
                 floor: median(served), format: "%.0f", target: "—", ok: nil).emit()
    }

    /// Milliseconds from spawning quaverd to its name being owned, to its first answer (it claims the name
    /// before setting up GStreamer; calls wait meanwhile), and to the card showing the track complete.
    private func timeOneStart(of track: URL, shell: GnomeShell, card: GnomeMediaCard,
                              client: Connection) throws -> (named: Double, served: Double, complete: Double) {
        let home = try TemporaryDirectory(prefix: "quaver-bench-home")
        let started = EventLoop.monotonicMicroseconds
        let daemon = try BenchProcess(BenchQuaverd.binary, ["--bus-address", shell.sessionBus.address,
                                                            "--output", "fakesink sync=true", track.path],
                                      environment: BenchQuaverd.environment(home: home.url))
        defer { daemon.stop() }
        func elapsed() -> Double { Double(EventLoop.monotonicMicroseconds - started) / 1000 }
        var named: Double?, served: Double?
        while elapsed() < 30_000 {
            if named == nil {
                if try nameHasOwner(client) { named = elapsed() }
            } else if served == nil {
                _ = try QuaverClient(connection: client, timeout: 20).playerProperties()
                served = elapsed()
            } else if let shown = try card.read(), shown.title == Self.title, shown.artist == Self.artist, shown.coverLoaded {
                let complete = elapsed()
                daemon.stop()
                guard eventually(timeout: 10, { (try? card.read()) == .some(nil) }) else {
                    throw BenchError("the card stayed after quaverd stopped")
                }
                return (named!, served!, complete)
            }
            usleep(5_000)
        }
        throw BenchError("no complete media card within 30 s: \(String(describing: try? card.read()))")
    }

    private func nameHasOwner(_ client: Connection) throws -> Bool {
        try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        method: "NameHasOwner", arguments: [.string(ControlAPI.busName)]).first?.boolValue == true
    }
}
