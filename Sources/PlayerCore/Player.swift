// The player core: one object owns the queue and the playback state; everything else talks to it.
//
//   MPRIS adapter, CLI ──commands──▶ Player ──load/prepareNext/seek…──▶ AudioEngine
//          ▲                           │  ▲                                  │
//          └──── PlayerChange ─────────┘  └────────── AudioEngineEvent ──────┘
//
// Two kinds of state are kept apart: `status` is what the user asked for (playing, paused, stopped)
// and changes only on commands; `progress` is how far the engine got with the loaded item. MPRIS shows
// `status`, so it never flaps while the pipeline reloads or seeks.
//
// All methods run on the loop thread. The core owns no timers and no threads.
//
// The core layer: pure Swift (the standard library only: no C module, no Foundation, nothing of ours), so
// it is tested against a fake engine in microseconds and every other layer may use it.

/// The queue, the playback state machine, and the rules users expect from a music player.
public final class Player {
    /// Rates the engine supports (MPRIS MinimumRate and MaximumRate).
    public static let rateRange: ClosedRange<Double> = 0.5...2.0
    /// Previous restarts the current track when it has played longer than this.
    public static let restartThreshold: Duration = .seconds(3)

    enum Progress { case idle, loading, ready }

    let engine: AudioEngine
    var queue = PlayQueue()
    var order: PlaybackOrder
    private var observers = ObserverList()

    public internal(set) var currentTrackID: TrackID?
    public internal(set) var status: PlaybackStatus = .stopped
    public internal(set) var volume: Double = 1
    /// A factor 0…1 on the volume the engine plays at, never shown as `volume` nor saved: the sleep timer's
    /// fade-out, so clients and the state file keep the user's own volume.
    public var fadeLevel: Double = 1 {
        didSet { if fadeLevel != oldValue { engine.setVolume(volume * fadeLevel) } }
    }
    public internal(set) var rate: Double = 1
    public internal(set) var loopMode: LoopMode = .none
    /// Whether the engine gets the next track ahead (`prepareNext`) to join it without a gap; when false,
    /// each track ends (EOS) before the next one is loaded (config `playback.gapless`).
    public var joinsTracksGaplessly = true {
        didSet { syncPreparedNext() }
    }
    /// Whether engine items say if a neighbour in play order is from the same album
    /// (`EngineItem.sharesAlbumWithNeighbour`, for ReplayGain "auto"); when false they never do, so tags
    /// arriving for the queue never send the engine an item again.
    public var marksAlbumNeighbours = false
    /// Whether engine items say if the track before them in play order is from the same album
    /// (`EngineItem.continuesAlbum`, for a crossfade that keeps an album's joints gapless); when false they never do.
    public var marksAlbumJoints = false {
        didSet { syncPreparedNext() }
    }
    /// Seconds a joint not within an album overlaps (`AudioEngine.setCrossfade`), 0…12; the album joints are marked
    /// while it is on.
    public var crossfadeSeconds = 0.0 {
        didSet {
            engine.setCrossfade(seconds: crossfadeSeconds)
            marksAlbumJoints = crossfadeSeconds > 0
        }
    }
    /// Network buffer fill of the loaded item; 100 when not buffering.
    public internal(set) var bufferingPercent = 100
    /// The most recent failure, kept after the player has moved on.
    public internal(set) var lastError: TrackFailure?
    /// How each queued track fared when tried (PlaybackHealth.swift); entries leave with their tracks.
    var trackOutcomes: [TrackID: TrackOutcome] = [:]
    /// The seconds of a loaded remote track downloaded, as the engine last reported them.
    var buffered: (track: TrackID, spans: [TimeSpan])?
    /// Stalls of a loaded track after it started (`countStall`).
    var stalls: (track: TrackID?, count: Int) = (nil, 0)
    /// The interruption that paused us is the output going away (`beginInterruption(outputGone:)`).
    var outputGone = false

    var progress = Progress.idle
    /// Set when every track failed in a row: `state` is `.failed` until the next command.
    var stoppedByFailure = false
    /// Tracks that failed since a track last played to its end or the user last acted:
    /// when it holds the whole queue, playing stops instead of looping through failures forever.
    var failedInARow: Set<TrackID> = []
    /// An interruption (a phone call corking music) paused us: its end may resume, nothing else's does.
    var pausedByInterruption = false
    /// Decides what a sound-server request to pause (`true`) or play again (`false`) does; adapters with
    /// policies of their own (the desktop events) set it. Every engine event still reaches the core first.
    public var soundServerRequestPolicy: ((Bool) -> Void)?
    /// Set by `open` until the opened track plays or anything else is asked for.
    var openedOver: OpenedOver?
    /// Reads a track's own tags, cover and length included, at once, on the loop thread: asked when a
    /// track becomes current, before observers hear of it, so that the first word clients get of a new
    /// current track is complete (GNOME Shell shows "Unknown artist" and the file name until more comes).
    /// `nil` from it leaves the track as it is (a remote stream, a file that cannot be read quickly); the
    /// engine's tags follow once it plays. Set by the daemon's tag scanner; unset, nothing is read.
    public var readTagsAtOnce: ((EngineItem) -> (tags: TrackTags, duration: Duration?)?)?
    /// Tracks `readTagsAtOnce` was asked about: once per queue entry is enough.
    var readAtOnce: Set<TrackID> = []

    // What the engine holds, as far as the core knows.
    /// The item last loaded, or switched to gaplessly; `nil` when the engine is stopped.
    var loaded: TrackID?
    /// What the engine was last told with `prepareNext`; `nil` when unknown (it must be told again).
    var enginePrepared: EngineItem??
    /// What the engine was last told of the loaded item's `sharesAlbumWithNeighbour`.
    var loadedSharesAlbum = false
    /// Items given to `prepareNext` since the last load: a `trackStarted` naming one is a gapless switch.
    var preparedSinceLoad: Set<TrackID> = []
    /// The next `trackStarted` of the loaded item restarts the same track (loop): clients get Seeked(0).
    var announceRestart = false
    /// Where the newest seek we asked for goes, until the engine reports it landed. The engine may merge
    /// a burst of seeks into one report: any report ends the wait.
    var seekTarget: Duration?
    /// The last position the engine reported (it can fail once right after a seek: docs/platform.md, "GStreamer behaviour").
    /// Upstream: no issue found; not retested after GStreamer 1.22.
    var lastPosition: Duration = .zero

    private var batchStart: Snapshot?
    private var pending: [PlayerChange] = []

    public init(engine: AudioEngine, random: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.engine = engine
        order = PlaybackOrder(generator: random)
        engine.delegate = self
    }

    public func addObserver(_ observer: PlayerObserver) { observers.add(observer) }
    public func removeObserver(_ observer: PlayerObserver) { observers.remove(observer) }

    // MARK: Readable state

    /// Tracks in queue order, each built when asked for: for a long queue read `trackIDs` or a range.
    public var tracks: [Track] { queue.tracks }
    /// The tracks at `range` of the queue (clamped to it), in order.
    public func tracks(in range: Range<Int>) -> [Track] {
        range.clamped(to: 0..<queue.count).map(queue.track(at:))
    }
    public var trackIDs: [TrackID] { queue.ids }
    public var queueLength: Int { queue.count }
    /// The queue now, to read later or on another thread; nothing is copied until the queue changes.
    public var queueSnapshot: QueueSnapshot { queue.snapshot }
    /// Where `id` is in `tracks`, found without a search.
    public func index(of id: TrackID) -> Int? { queue.index(of: id) }
    public func track(_ id: TrackID) -> Track? { queue.track(id) }
    /// The URI of a queued track, without building the whole `Track`.
    public func uri(of id: TrackID) -> String? { queue.uri(id) }
    public var currentTrack: Track? { currentTrackID.flatMap(queue.track) }
    public var isShuffled: Bool { order.isShuffled }
    /// The track the engine was told comes next (gapless); `nil` when none or not known yet.
    public var preparedNextTrackID: TrackID? { enginePrepared.flatMap { $0 }?.id }

    public var state: PlaybackState {
        switch status {
        case .stopped: return stoppedByFailure ? .failed : .stopped
        case .paused: return progress == .loading ? .loading : .paused
        case .playing:
            if progress == .loading { return .loading }
            return bufferingPercent < 100 ? .buffering : .playing
        }
    }

    /// The position heard now, read live from the engine (MPRIS Position is never cached: rule 1).
    public var position: Duration {
        guard loaded != nil else { return .zero }
        if let seekTarget { return seekTarget }
        if progress == .ready, let heard = engine.position { lastPosition = heard }
        return lastPosition
    }

    /// No `Track` is built for it: the change batching compares it after every command and event.
    public var capabilities: PlayerCapabilities {
        var can = PlayerCapabilities()
        guard let current = currentTrackID, let seekable = queue.isSeekable(current) else { return can }
        can.canPlay = true
        can.canPause = true
        can.canSeek = seekable == true
        can.canGoNext = hasNext(after: current)
        can.canGoPrevious = order.hasPrevious(before: current, wrap: loopMode == .playlist, in: queue)
        return can
    }

    private func hasNext(after current: TrackID) -> Bool {
        order.hasNext(after: current, wrap: loopMode == .playlist, in: queue)
    }

    // Each of these is one property of GetAll(Player): each asks only what it needs, not the whole `capabilities`.
    public var canGoNext: Bool {
        guard let current = currentTrackID, queue.contains(current) else { return false }
        return hasNext(after: current)
    }
    public var canGoPrevious: Bool { capabilities.canGoPrevious }
    public var canPlay: Bool { currentTrackID.map(queue.contains) ?? false }
    public var canPause: Bool { canPlay }
    public var canSeek: Bool { currentTrackID.flatMap(queue.isSeekable).flatMap { $0 } == true }

    // MARK: Change batching

    /// The values whose changes are found by comparison rather than reported where they happen.
    private struct Snapshot: Equatable {
        var current: TrackID?, status: PlaybackStatus, state: PlaybackState, capabilities: PlayerCapabilities
        var volume: Double, rate: Double, loopMode: LoopMode, shuffled: Bool, buffering: Int
    }

    private var snapshot: Snapshot {
        Snapshot(current: currentTrackID, status: status, state: state, capabilities: capabilities,
                 volume: volume, rate: rate, loopMode: loopMode, shuffled: isShuffled, buffering: bufferingPercent)
    }

    /// Runs a command or event handler; when the outermost one ends, brings the engine's prepared item
    /// up to date and tells observers what really changed.
    func changing(_ body: () -> Void) {
        let outermost = batchStart == nil
        if outermost { batchStart = snapshot }
        body()
        guard outermost, let before = batchStart else { return }
        if currentTrackID != before.current {
            queue.keepCover(onlyOf: currentTrackID)
            completeCurrentTrack()
        }
        syncLoadedItem()
        syncPreparedNext()
        batchStart = nil
        appendDifferences(from: before)
        let changes = pending
        pending = []
        for change in changes { observers.send(change) }
    }

    func note(_ change: PlayerChange) {
        pending.append(change)
        forgetOutcomes(after: change)
    }

    /// Fills in the new current track's tags with `readTagsAtOnce`, within the batch that made it current,
    /// so its metadata and the change of track reach observers together.
    private func completeCurrentTrack() {
        guard let read = readTagsAtOnce, let track = currentTrack, readAtOnce.insert(track.id).inserted,
              let (tags, duration) = read(EngineItem(id: track.id, uri: track.uri)) else { return }
        addTags(tags, duration: duration, to: track.id)
    }

    private func appendDifferences(from before: Snapshot) {
        let after = snapshot
        if after.current != before.current { note(.currentTrack(after.current)) }
        if after.status != before.status { note(.status(after.status)) }
        if after.state != before.state { note(.state(after.state)) }
        if after.capabilities != before.capabilities { note(.capabilities(after.capabilities)) }
        if after.volume != before.volume { note(.volume(after.volume)) }
        if after.rate != before.rate { note(.rate(after.rate)) }
        if after.loopMode != before.loopMode { note(.loopMode(after.loopMode)) }
        if after.shuffled != before.shuffled { note(.shuffle(after.shuffled)) }
        if after.buffering != before.buffering { note(.buffering(percent: after.buffering)) }
    }
}
