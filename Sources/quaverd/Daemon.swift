// Wiring: sink → engine → player core → MPRIS object on the bus, all on one GLib loop (EventLoop.main).
// The name is claimed first, so a second daemon stops before touching GStreamer; calls that arrive
// meanwhile wait in libdbus's queue until the loop runs, when the object is exported. Shutdown stops
// playback, gives the name back and flushes.
import DBus
import EventLoop
import Foundation
import GStreamerEngine
import Logging
import MPRIS
import PlayerCore

final class Daemon {
    private let options: Quaverd
    private let log = Logger(label: "quaverd")
    private var exitStatus: Int32 = 0

    init(options: Quaverd) {
        self.options = options
    }

    /// Runs until Quit, SIGTERM/SIGINT or the loss of the bus; returns the exit status.
    func run() -> Int32 {
        do {
            let connection = try connect()
            try claimName(on: connection)
            let engine = try GStreamerEngine(configuration: .init(sink: SoundOutput.choose(options.output, log: log)))
            let player = Player(engine: engine)
            let service = MPRISService(player: player, connection: connection, configuration: .init(
                supportedMimeTypes: GStreamerEngine.supportedMimeTypes(),
                artwork: ArtworkCache(directory: ArtworkCache.defaultDirectory()),
                quit: { [weak self] in self?.stop("Quit was called") }))
            // Our own interface (what MPRIS lacks) joins the MPRIS ones on the same object.
            let quaver = QuaverInterface(mpris: service, version: Quaverd.version)
            connection.export(service.exportedObject(adding: [quaver.description]))
            enqueue(options.items, into: player)
            let signals = [SIGTERM, SIGINT].map { signal in
                EventLoop.main.onSignal(signal) { [weak self] in self?.stop("signal \(signal)") }
            }
            connection.onDisconnect = { [weak self] in self?.stop("lost the D-Bus connection", status: 1) }
            log.info("serving \(MPRISService.busName) on \(options.busAddress ?? "the session bus")")
            EventLoop.main.run()
            signals.forEach { $0.cancel() }
            withExtendedLifetime(quaver) {}  // the player holds its observers weakly
            shutDown(player, connection)
            return exitStatus
        } catch let error as ConnectionError {
            FileHandle.standardError.write(Data("quaverd: \(error)\n".utf8))
            return 1
        } catch {
            log.critical("cannot start: \(error)")
            return 1
        }
    }

    private func connect() throws -> Connection {
        if let address = options.busAddress { return try Connection(address: address) }
        return try Connection.session()
    }

    /// One owner at a time: a second daemon says so on one line and exits 1 (ConnectionError.nameTaken).
    private func claimName(on connection: Connection) throws {
        try connection.requestName(MPRISService.busName)
    }

    private func enqueue(_ items: [String], into player: Player) {
        var uris: [String] = []
        for item in items {
            let uri = OpenableURI.uri(forArgument: item)
            do { uris.append(try OpenableURI.check(uri)) } catch { log.error("not queued: \(item): \(error)") }
        }
        player.add(uris)
        if options.play { player.play() }
    }

    private func stop(_ reason: String, status: Int32 = 0) {
        log.info("stopping: \(reason)")
        exitStatus = max(exitStatus, status)
        EventLoop.main.quit()
    }

    private func shutDown(_ player: Player, _ connection: Connection) {
        player.stop()
        if connection.isConnected {
            try? connection.releaseName(MPRISService.busName)
            connection.flush()
        }
        connection.close()
    }
}
