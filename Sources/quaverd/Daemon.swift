// Wiring: sink → engine → player core → MPRIS object on the bus, all on one GLib loop (EventLoop.main).
// The name is claimed first, so a second daemon stops before touching GStreamer; calls that arrive
// meanwhile wait in libdbus's queue until the loop runs, when the object is exported. A small saved
// session is restored before the loop runs, so no client sees an empty queue first; a long one is read in
// the background and arrives right after the first answers; command-line items join it. Shutdown saves the session, then stops playback, gives the name back and flushes.
import BaseDirectories
import Configuration
import ControlAPI
import DBus
import DesktopEvents
import DesktopNotifications
import EventLoop
import FoundationEssentials
import Glibc
import GStreamerEngine
import Library
import ListeningHistory
import Scrobbling
import Logging
import MPRIS
import PlayerCore
import Session
import QuaverVersion

final class Daemon {
    private let options: DaemonOptions
    /// config.toml as loaded at start; modules wired here read their sections ([interruptions], [network]).
    let settings: Configuration
    private let log = Logger(label: "quaverd")
    private var exitStatus: Int32 = 0
    private var recorder: SessionRecorder?

    init(options: DaemonOptions, settings: Configuration) {
        self.options = options
        self.settings = settings
    }

    /// Runs until Quit, SIGTERM/SIGINT or the loss of the bus; returns the exit status.
    func run() -> Int32 {
        // Once, at start: the umask covers what is created from now on.
        let folders = BaseDirectory.makeQuaverFoldersPrivate()
        folders.changed.forEach { log.notice("\($0)") }
        folders.refused.forEach { log.warning("\($0)") }
        do {
            let connection = try options.busAddress.map { try Connection(address: $0) } ?? Connection.session()
            // One owner at a time: a second daemon says so on one line and exits 1 (ConnectionError.nameTaken).
            try connection.requestName(ControlAPI.busName)
            let (sink, serverHint) = requestedOutput()
            log.info("sound output: \(sink)")
            let network = GStreamerEngine.NetworkOptions.with(
                cacheSizeMB: settings.network.cacheSizeMB, retries: settings.network.retries,
                connectTimeout: settings.network.connectTimeoutSeconds, proxy: settings.network.proxy, log: log)
            let engine = GStreamerEngine(configuration: .init(sink: sink, network: network, replayGain: replayGain(),
                                                              serverHint: serverHint, keptFeatures: keptFeaturesFile))
            let fades = Fades(pause: .milliseconds(settings.playback.fadeOnPauseMS), skip: .milliseconds(settings.playback.fadeOnSkipMS))
            let player = Player(engine: FadingEngine.around(engine, fades: fades, clock: WallClock()))
            player.joinsTracksGaplessly = settings.playback.gapless
            player.marksAlbumNeighbours = settings.playback.replayGain == .auto
            let desktop = DesktopEvents(player: player, policies: settings.interruptions, log: log)
            let scanner = TagScanner.logging(player: player, engine: engine, tagsWait: .milliseconds(settings.playback.tagsWaitMS), log: log)
            let artwork = ArtworkCache(directory: ArtworkCache.defaultDirectory())
            // Before the restore, so that a session resumed playing is announced too.
            let notifier = TrackNotifier.ifEnabled(settings.notifications.enabled,
                                                   timeoutSeconds: settings.notifications.timeoutSeconds,
                                                   player: player, connection: connection, log: log) {
                artwork.artURL(trackURI: $0.uri, embedded: $0.tags.coverImage)
            }
            recorder = SessionRecorder.standard(player: player, log: log)
            let sleepTimer = SleepTimer(player: player, clock: WallClock(),
                                        fade: .milliseconds(Int64(settings.playback.sleepFadeSeconds * 1000)))
            recorder?.sleepTimer = sleepTimer
            let outputs = desktop.outputSelector
            recorder?.outputRestored = { outputs.restore($0) }
            outputs.choiceChanged = { [weak recorder] in recorder?.chosenOutput = $0 }
            let service = MPRISService(player: player, connection: connection, configuration: .init(
                supportedMimeTypes: { engine.features.supportedMimeTypes },
                artwork: artwork,
                quit: { [weak self] in self?.stop("Quit was called") },
                recognisesMedia: GStreamerEngine.recognisesMedia(atPath:)))
            let history = makeHistory(player, service)
            let playlists = SavedPlaylists.standard(mpris: service, musicFolders: musicFolders, log: log)
            let equalizer = EqualizerControl.standard(available: engine.features.hasEqualizer, keptBy: recorder, log: log) {
                engine.setEqualizer(preAmp: $0.preAmp, gains: $0.gains)
            }
            let crossfade = CrossfadeControl.standard(player: player, configured: settings.playback.crossfadeSeconds, keptBy: recorder)
            let library = MusicLibrary.standard(folders: musicFolders, log: log)  // scanned once the object is exported
            playlists?.library = library
            history?.musicBrainzTags = library.map { library in
                { library.musicBrainzIDs(of: $0).map { MusicBrainzTags(recording: $0.recording, release: $0.album, artist: $0.artist) } }
            }
            if let library { player.readTagsAtOnce = library.tagsAtOnce(otherwise: player.readTagsAtOnce) }
            // Our own interface (what MPRIS lacks) joins the MPRIS ones on the same object.
            let served = ServedObjects(service: service, on: connection, version: quaverVersion, playlists: playlists,
                                       library: library, parts: [SleepTimerControl(timer: sleepTimer, player: player),
                                                                 OutputsControl(selector: outputs), PlaybackHealthMembers(player: player), crossfade]
                                                                 + (equalizer.map { [$0] } ?? []))
            restoreThenEnqueue(into: player)
            library?.start()
            let signals = [SIGTERM, SIGINT].map { signal in
                EventLoop.main.onSignal(signal) { [weak self] in self?.stop("signal \(signal)") }
            }
            connection.onDisconnect = { [weak self] in self?.stop("lost the D-Bus connection", status: 1) }
            // libdbus reads DBUS_SYSTEM_BUS_ADDRESS, which is how tests hand us a fake logind.
            try desktop.start(systemBus: try? Connection.system(), sessionBus: connection,
                              keepAwakeWhilePlaying: settings.power.keepAwakeWhilePlaying,
                              saveState: { [weak self] in self?.recorder?.saveNow() })
            log.info("serving \(ControlAPI.busName) on \(options.busAddress ?? "the session bus")")
            let watchdog = ServiceWatchdog(environment: ProcessInfo.processInfo.environment)
            EventLoop.main.run()
            withExtendedLifetime(watchdog) {}
            signals.forEach { $0.cancel() }
            desktop.stop()
            // The player holds its observers weakly, and exported methods hold their objects weakly.
            withExtendedLifetime((served, notifier, playlists, history, sleepTimer)) {}
            library?.stop()
            recorder?.finish()
            player.stop()
            network.cache?.removeScratchFolder()  // a download may outlive the exit: its folder does not
            connection.close(releasing: ControlAPI.busName)  // clients see the name go first
            withExtendedLifetime(scanner) {}
            return exitStatus
        } catch let error as ConnectionError {
            fputs("quaverd: \(error)\n", stderr)
            return 1
        } catch {
            log.critical("cannot start: \(error)")
            return 1
        }
    }

    /// `--output`, else `[audio] output`; `snapcast` is the sink for the server the `[snapcast]` section names. The
    /// engine's first load checks that it opens, and plays silently with the hint in the log when it does not.
    private func requestedOutput() -> (sink: String, serverHint: String) {
        let requested = options.output ?? settings.audio.output
        guard requested == Configuration.Audio.snapcastOutput else { return (requested, SoundOutput.soundServerHint) }
        let snapcast = settings.snapcast, format = snapcast.sampleFormat
        let output = SnapcastOutput(host: snapcast.host, port: snapcast.port, rate: format.rate, bits: format.bits,
                                    channels: format.channels)
        return (output.sinkDescription, SoundOutput.serverHint(for: output))
    }

    /// `$XDG_CACHE_HOME/quaver/gstreamer-features`: what the installed GStreamer offered when it last ran here.
    private var keptFeaturesFile: String? {
        (try? BaseDirectory.cache.quaverFolder())?.appendingPathComponent("gstreamer-features").path
    }

    /// `[playback] replaygain` and `replaygain-preamp-db`.
    private func replayGain() -> ReplayGain {
        let mode = ReplayGain.Mode(rawValue: settings.playback.replayGain.rawValue) ?? .off
        return ReplayGain(mode: mode, preAmp: settings.playback.replayGainPreAmpDB)
    }

    /// `[library] folders` resolved: the library's folders, and those saved playlists are written relative to.
    private var musicFolders: [String] {
        MusicFolders.resolve(settings.library.folders, environment: ProcessInfo.processInfo.environment)
    }

    /// The listening history, published in MPRIS Metadata, and its listens sent as `[scrobble]` asks.
    private func makeHistory(_ player: Player, _ service: MPRISService) -> HistoryRecorder? {
        guard let (history, path) = HistoryRecorder.standard(player: player, log: log) else { return nil }
        service.publish(history)
        history.load()
        ListenBrainzSender.follow(history, storedAt: path, scrobble: settings.scrobble, network: settings.network, log: log)
        return history
    }

    /// The saved session first (a long one arrives after the first answers: SessionRecorder), then the
    /// command line's items after it.
    private func restoreThenEnqueue(into player: Player) {
        guard settings.playback.resumeOnStart, let recorder else { return enqueue(options.items, into: player) }
        recorder.restoreInBackground(resumePaused: settings.playback.resumePaused) { [weak self, weak player] in
            guard let self, let player else { return }
            enqueue(options.items, into: player)
        }
    }

    private func enqueue(_ items: [String], into player: Player) {
        player.add(OpenableURI.commandLine(items) { log.error("not queued: \($0)") })
        if options.play { player.play() }
    }

    private func stop(_ reason: String, status: Int32 = 0) {
        log.info("stopping: \(reason)")
        exitStatus = max(exitStatus, status)
        EventLoop.main.quit()
    }
}
