import ControlAPI
import Dispatch
import EventLoop
import FoundationEssentials
import Glibc
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
    /// The current track as last saved: the engine reports a playing track's tags again, in more detail
    /// than the state keeps (cover image bytes, nanoseconds), and the whole queue need not be written for that.
    private var savedCurrent: (id: TrackID, saved: SavedTrack)?
    /// Set while a saved queue is read in the background (`restoreInBackground`).
    private var restoring: PendingRestore?
    private var changedWhileRestoring = false
    private var savedSleepMode = SleepMode.off
    /// The sound server's sink chosen for the music (nil: the default), kept in the state file.
    public var chosenOutput: String? {
        didSet { if chosenOutput != oldValue { saver?.markChanged() } }
    }
    /// Told the chosen output read back from the state file, before the saved session is applied.
    public var outputRestored: ((String?) -> Void)?
    /// The equaliser, kept in the state file.
    public var equalizer = EqualizerState.off {
        didSet { if equalizer != oldValue { saver?.markChanged() } }
    }
    /// Told the equaliser read back from the state file, before the saved session is applied.
    public var equalizerRestored: ((EqualizerState) -> Void)?
    /// The crossfade's seconds once set over D-Bus (nil before: the configuration's), kept in the state file.
    public var crossfadeSeconds: Double? {
        didSet { if crossfadeSeconds != oldValue { saver?.markChanged() } }
    }
    /// Told the crossfade read back from the state file, before the saved session is applied.
    public var crossfadeRestored: ((Double) -> Void)?
    /// Kept in the state file with the session, restored after it.
    public var sleepTimer: SleepTimer? {
        didSet { sleepTimer?.observe { [weak self] _ in self?.sleepTimerChanged() } }
    }

    public init(player: Player, file: StateFile, log: Logger) {
        self.player = player
        self.file = file
        self.log = log
        saver = StateSaver(file: file, snapshot: { [unowned self] in snapshot() }, onError: { [log] error in
            log.error("cannot save the player state: \(error)")
        })
        player.addObserver(self)
    }

    /// State files up to this size are restored before the daemon answers anyone (about 3 000 tagged
    /// tracks, read in some 20 ms); larger ones in the background (docs/settings-and-state.md, "Start-up").
    public static let largestStateRestoredAtOnce = 256 << 10

    /// Loads the saved session into the player now. An unusable file has been set aside by `StateFile.load`:
    /// the log says where, and the player starts empty.
    public func restore(resumePaused: Bool) {
        apply(Self.read(file, resumePaused: resumePaused))
    }

    /// Restores a small state file at once (`restore`) and calls `done`; a larger one is read and converted
    /// on a background thread while the loop answers clients, then put in the player in one step, and
    /// `done` runs after that. Tracks queued meanwhile stay, after the restored ones; the restored current
    /// track, position and settings apply only if the queue was still empty. A save (exit, suspend) asked
    /// for meanwhile waits for the restore, so the saved queue is never written over by an empty one.
    public func restoreInBackground(resumePaused: Bool, then done: @escaping () -> Void) {
        // stat(2), not FileManager's attributes: FoundationEssentials gives the size as another integer type,
        // `as? Int` read 0, and every saved queue was restored on the loop before its first answer (322 ms
        // for 20 000 tracks, quaver-bench daemon-cost).
        var status = stat()
        let size = stat(file.url.path, &status) == 0 ? Int(status.st_size) : 0
        guard size > Self.largestStateRestoredAtOnce else {
            restore(resumePaused: resumePaused)
            return done()
        }
        let pending = PendingRestore()
        restoring = pending
        let file = self.file
        DispatchQueue.global(qos: .userInitiated).async {
            pending.deliver(Self.read(file, resumePaused: resumePaused))
            EventLoop.main.post { [weak self] in
                self?.finishRestoring()
                ProcessMemory.giveBackSoon()  // the decoded file is garbage now
                done()
            }
        }
    }

    /// The saved session, converted to what the player takes, with what to log; runs on any thread.
    private static func read(_ file: StateFile, resumePaused: Bool) -> RestoredSession {
        let loaded = file.load()
        let count = loaded.state?.queue.count ?? 0, limit = InputLimits.maximumQueueLength
        let cut = count > limit ? "Saved state \(file.url.path) has \(count) tracks: only the first \(limit) are restored" : nil
        return RestoredSession(session: loaded.state.map { $0.session(resumePaused: resumePaused) },
                               sleep: loaded.state?.sleepRequest(), output: loaded.state?.output,
                               equalizer: loaded.state?.equalizerState() ?? .off, crossfade: loaded.state?.crossfadeSeconds, warning: loaded.warning ?? cut, source: file.url.path)
    }

    private func apply(_ restored: RestoredSession) {
        if let warning = restored.warning { log.warning("\(warning)") }
        if chosenOutput == nil, let output = restored.output {
            chosenOutput = output
            outputRestored?(output)
        }
        if equalizer == .off, restored.equalizer != .off {
            equalizer = restored.equalizer
            equalizerRestored?(restored.equalizer)
        }
        if crossfadeSeconds == nil, let seconds = restored.crossfade {
            crossfadeSeconds = seconds
            crossfadeRestored?(seconds)
        }
        guard let session = restored.session else { return }
        if player.queueLength == 0 {
            player.restore(session)
            restoreSleepTimer(restored.sleep)
        } else {
            player.add(session.entries, at: .start)
        }
        log.info("restored \(session.entries.count) queued tracks from \(restored.source)")
    }

    /// Puts a background restore in the player (waiting for it if it is still being read). Idempotent.
    private func finishRestoring() {
        guard let pending = restoring else { return }
        restoring = nil
        apply(pending.wait())
        if changedWhileRestoring { saver?.markChanged() }
        changedWhileRestoring = false
    }

    /// Writes the state now and waits until it is on disk (before exit or system suspend). Failures are logged.
    public func saveNow() {
        finishRestoring()
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
        guard restoring == nil else {
            changedWhileRestoring = true
            return
        }
        switch change {
        case .metadata(let id):
            guard savedFormChanged(id) else { return }
        case .tracksAdded, .trackRemoved, .trackMoved, .queueReplaced:
            break
        case .status(let status):
            tickPosition(status == .playing)
            return saver?.markPositionChanged() ?? ()
        case .currentTrack, .seeked:
            return saver?.markPositionChanged() ?? ()
        case .volume, .rate, .loopMode, .shuffle:
            break
        case .state, .capabilities, .buffering, .bufferedRanges, .trackFailed:
            return  // derived from what is saved, or followed by a change that is
        }
        saver?.markChanged()
    }

    private func restoreSleepTimer(_ sleep: SleepRestore?) {
        switch sleep {
        case .deadline(let deadline)?: sleepTimer?.restore(.at(deadline))
        case .request(let request)?: sleepTimer?.set(request)
        case nil: break
        }
    }

    /// Once a minute a timed sleep reports the time left, which the file does not hold: only a new mode
    /// or deadline is written.
    private func sleepTimerChanged() {
        guard let mode = sleepTimer?.mode, mode != savedSleepMode else { return }
        savedSleepMode = mode
        if restoring == nil { saver?.markChanged() } else { changedWhileRestoring = true }
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

    /// Whether the track's entry in the state differs from the one last saved. Only the current track's
    /// saved form is kept: the engine reports tags of that one only.
    private func savedFormChanged(_ id: TrackID) -> Bool {
        guard let saved = savedCurrent, saved.id == id, let track = player.track(id) else { return true }
        return SavedTrack(track) != saved.saved
    }

    /// Everything but the queue now; the queue from a copy that costs nothing until the player changes
    /// it, turned into `SavedTrack`s one by one on the saver's queue.
    private func snapshot() -> StateSnapshot {
        savedCurrent = player.currentTrack.map { ($0.id, SavedTrack($0)) }
        let queue = player.queueSnapshot
        var state = SavedState(player, queue: [])
        state.record(sleepTimer?.mode ?? .off)
        state.output = chosenOutput
        state.record(equalizer)
        state.crossfadeSeconds = crossfadeSeconds
        return StateSnapshot(state, queue: { each in queue.forEach { each(SavedTrack($0)) } })
    }
}

/// A saved session read on a background thread, handed to the loop.
private struct RestoredSession: Sendable {
    let session: PlayerSession?
    let sleep: SleepRestore?
    let output: String?
    let equalizer: EqualizerState
    let crossfade: Double?
    let warning: String?
    let source: String
}

/// The result of a background restore, once there; the loop waits for it only when it must (a save).
private final class PendingRestore: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var result: RestoredSession?

    /// On the background thread, once.
    func deliver(_ restored: RestoredSession) {
        result = restored
        ready.signal()
    }

    /// On the loop thread, once: `deliver` happened before `signal`, so reading after `wait` is safe.
    func wait() -> RestoredSession {
        ready.wait()
        return result!
    }
}
