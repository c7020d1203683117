import EventLoop
import Logging
import PlayerCore
import StateStore

/// Keeps the state file in step with the player: a change is on disk within about a second (StateSaver
/// coalesces bursts into one write off the loop), the position is refreshed once a second while playing,
/// and `saveNow()` writes everything at once (exit, system suspend).
///
/// The position ticker runs only while playing, so a paused or stopped daemon has no timer at all.
public final class SessionRecorder: PlayerObserver {
    /// How often the position is marked while playing; with the saver's one-second coalescing, a
    /// `kill -9` loses at most about two seconds of position.
    static let positionInterval = 1.0

    private let player: Player
    private let file: StateFile
    private let log: Logger
    private var saver: StateSaver?
    private var positionTicker: LoopSource?
    /// The queue as saved, kept between queue changes; `nil` once the queue or a track's tags changed.
    private var savedQueue: [SavedTrack]?

    public init(player: Player, file: StateFile, log: Logger) {
        self.player = player
        self.file = file
        self.log = log
        saver = StateSaver(file: file, snapshot: { [unowned self] in snapshot() }, onError: { [log] error in
            log.error("cannot save the player state: \(error)")
        })
        player.addObserver(self)
    }

    /// Loads the saved session into the player. An unusable file has been set aside by `StateFile.load`:
    /// the log says where, and the player starts empty.
    public func restore(resumePaused: Bool) {
        let loaded = file.load()
        if let warning = loaded.warning { log.warning("\(warning)") }
        guard let state = loaded.state else { return }
        player.restore(state.session(resumePaused: resumePaused))
        log.info("restored \(state.queue.count) queued tracks from \(file.url.path)")
    }

    /// Writes the state now and waits until it is on disk (before exit or system suspend). Failures are logged.
    public func saveNow() {
        do {
            try saver?.flushNow()
        } catch {
            log.error("cannot save the player state: \(error)")
        }
    }

    /// Saves a last time and stops recording, so the shutdown's own Stop is not written over the session.
    public func finish() {
        saveNow()
        player.removeObserver(self)
        positionTicker?.cancel()
        positionTicker = nil
        saver = nil
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .metadata(let id):
            guard savedFormChanged(id) else { return }
            savedQueue = nil
        case .tracksAdded, .trackRemoved, .trackMoved, .queueReplaced:
            savedQueue = nil
        case .status(let status):
            tickPosition(status == .playing)
            return saver?.markPositionChanged() ?? ()
        case .currentTrack, .seeked:
            return saver?.markPositionChanged() ?? ()
        case .volume, .rate, .loopMode, .shuffle:
            break
        case .state, .capabilities, .buffering, .trackFailed:
            return  // derived from what is saved, or followed by a change that is
        }
        saver?.markChanged()
    }

    private func tickPosition(_ playing: Bool) {
        guard playing != (positionTicker != nil) else { return }
        positionTicker?.cancel()
        positionTicker = playing
            ? EventLoop.main.schedule(after: Self.positionInterval, repeating: true) { [weak self] in
                self?.saver?.markPositionChanged()
            }
            : nil
    }

    /// Whether the track's entry in the state differs from the one last saved: the engine reports a
    /// playing track's tags again, in more detail than the state keeps (cover image bytes, nanoseconds),
    /// and the whole queue need not be written for that.
    private func savedFormChanged(_ id: TrackID) -> Bool {
        guard let saved = savedQueue, saved.count == player.tracks.count, let index = player.index(of: id),
              let track = player.track(id) else { return true }
        return SavedTrack(track) != saved[index]
    }

    private func snapshot() -> SavedState {
        let queue = savedQueue ?? player.tracks.map(SavedTrack.init)
        savedQueue = queue
        return SavedState(player, queue: queue)
    }
}
