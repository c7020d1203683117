/// The clock and the one-shot timers the sleep timer runs on: the daemon's loop and the wall clock, or a
/// test's clock moved by hand. The core owns no timers of its own.
public protocol SleepClock: AnyObject {
    /// Wall-clock time since the Unix epoch: a deadline kept across a restart means the same moment.
    var now: Duration { get }
    /// Runs `action` once after `delay`, unless the returned token is released first.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> AnyObject
}

/// What the sleep timer waits for.
public enum SleepMode: Equatable, Sendable {
    case off
    /// Pause at this moment of `SleepClock.now`.
    case at(Duration)
    /// Pause when this track has played to its end.
    case endOfTrack(TrackID)
    /// Pause when a track of another album would follow this one (it is renewed while the album plays on).
    case endOfAlbum(TrackID)
}

/// What a user asks of the sleep timer.
public enum SleepRequest: Equatable, Sendable {
    case off, endOfTrack, endOfAlbum
    case after(Duration)
}

/// "Stop in 30 minutes", "stop after this track", "stop after this album": pauses the player (the queue,
/// the track and the position stay), after fading the sound out over `fade`; the volume the engine plays
/// at is then restored (`Player.fadeLevel`), so the next Play sounds as before.
///
/// A timed sleep counts wall-clock time whatever the player does; only while playing does it fade. The
/// end of a track is where the next one starts by itself (a gapless switch or a new load); a Next or a
/// jump by the user moves the timer to the track they chose. A Stop, or the queue running out, ends the
/// track and album modes with nothing left to do.
public final class SleepTimer: PlayerObserver {
    /// How often the volume steps down during the fade.
    static let fadeStep = Duration.milliseconds(100)
    /// A track change within this much of the armed track's end is its natural end, not the user's Next.
    static let endTolerance = Duration.milliseconds(1500)
    /// How often a timed sleep tells its observers the time left.
    static let reportInterval = Duration.seconds(60)

    public private(set) var mode: SleepMode = .off
    private let player: Player
    private let clock: SleepClock
    private let fade: Duration
    private var wake: AnyObject?
    /// The least time left seen of the armed track since it was armed or seeked (media time over the rate):
    /// once the engine has moved to the next item, its position is that item's, before the core hears of it.
    private var closestToEnd: Duration?
    private var observers: [(SleepMode) -> Void] = []

    public init(player: Player, clock: SleepClock, fade: Duration) {
        self.player = player
        self.clock = clock
        self.fade = fade
        player.addObserver(self)
    }

    /// `observer` hears every change of mode, and the time left once a minute while a timed sleep runs.
    public func observe(_ observer: @escaping (SleepMode) -> Void) { observers.append(observer) }

    public func set(_ request: SleepRequest) {
        switch request {
        case .off: arm(.off)
        case .after(let delay): arm(.at(clock.now + max(delay, .zero)))
        case .endOfTrack: arm(player.currentTrackID.map(SleepMode.endOfTrack) ?? .off)
        case .endOfAlbum: arm(player.currentTrackID.map(SleepMode.endOfAlbum) ?? .off)
        }
    }

    /// A mode read back from the saved state: a deadline already past is dropped, not acted on.
    public func restore(_ mode: SleepMode) {
        if case .at(let deadline) = mode, deadline <= clock.now { return }
        arm(mode)
    }

    /// Time left of a timed sleep, else nil.
    public var remaining: Duration? {
        guard case .at(let deadline) = mode else { return nil }
        return max(deadline - clock.now, .zero)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .currentTrack(let id): currentTrackChanged(to: id)
        case .status(.stopped):
            if case .at = mode { step() } else { arm(.off) }
        case .seeked:
            closestToEnd = nil
            player.fadeLevel = 1
            step()
        case .status, .rate: step()
        default: break
        }
    }

    private func arm(_ newMode: SleepMode) {
        mode = newMode
        closestToEnd = nil
        player.fadeLevel = 1
        step()
        observers.forEach { $0(mode) }
    }

    private func currentTrackChanged(to id: TrackID?) {
        let armed: TrackID
        switch mode {
        case .endOfTrack(let track), .endOfAlbum(let track): armed = track
        case .off, .at: return
        }
        guard let id, id != armed else { return }
        let natural = isEnding
        if !natural { return rearm(on: id) }
        if case .endOfAlbum = mode, isSameAlbum(armed, id) { return rearm(on: id) }
        expire()
    }

    private func rearm(on id: TrackID) {
        if case .endOfAlbum = mode { arm(.endOfAlbum(id)) } else { arm(.endOfTrack(id)) }
    }

    /// Pauses with the sound faded out, then restores the level: the pause comes first, so the restored
    /// volume is never heard. The level is 0 at the pause, so an engine that fades on pause (FadingEngine)
    /// has nothing left to fade and pauses at once.
    private func expire() {
        mode = .off
        wake = nil
        closestToEnd = nil
        if player.status == .playing {
            player.fadeLevel = 0
            player.pause()
        }
        player.fadeLevel = 1
        observers.forEach { $0(mode) }
    }

    /// Whether the armed track was seen within `endTolerance` of its end: it is ending, whatever position
    /// the engine reports once it has moved on to the next item.
    private var isEnding: Bool { closestToEnd.map { $0 <= Self.endTolerance } ?? false }

    /// Sets the fade level for now and schedules the next look.
    private func step() {
        wake = nil
        guard let left = timeLeft() else { return player.fadeLevel = 1 }
        if left <= .zero, case .at = mode { return expire() }
        if case .at = mode {} else if player.status == .playing {
            closestToEnd = min(closestToEnd ?? left, left)
            if isEnding {  // the level stays where the fade left it until the next track is announced
                wake = clock.schedule(after: Self.fadeStep) { [weak self] in self?.tick() }
                return
            }
        }
        let fading = player.status == .playing && left <= fade && fadesBeforeEnd()
        player.fadeLevel = fading && fade > .zero ? max(0, min(1, left / fade)) : 1
        if let delay = nextLook(left: left, fading: fading) {
            wake = clock.schedule(after: delay) { [weak self] in self?.tick() }
        }
    }

    private func tick() {
        step()
        if case .at = mode, player.fadeLevel == 1 { observers.forEach { $0(mode) } }
    }

    /// When to look again: each fade step while fading; otherwise when the fade (or the track's natural
    /// end) is due, and at least once a minute for a timed sleep's report.
    private func nextLook(left: Duration, fading: Bool) -> Duration? {
        if fading || left <= Self.endTolerance { return Self.fadeStep }
        let untilFade = left - max(fade, Self.endTolerance)
        switch mode {
        case .at: return min(max(untilFade, Self.fadeStep), Self.reportInterval)
        default: return player.status == .playing ? max(untilFade, Self.fadeStep) : nil
        }
    }

    /// The time until the pause: wall-clock for a timed sleep, the armed track's media time left at the
    /// current rate otherwise (nil while it is not the current track or its length is unknown).
    private func timeLeft() -> Duration? {
        switch mode {
        case .off: return nil
        case .at(let deadline): return deadline - clock.now
        case .endOfTrack(let id), .endOfAlbum(let id):
            guard player.currentTrackID == id, let length = player.track(id)?.duration else { return nil }
            return (length - player.position) / player.rate
        }
    }

    /// End of album fades only before a track known to start another album (or none prepared to follow);
    /// when what follows is unknown (gapless off), it pauses without a fade rather than dip the volume
    /// between two tracks of one album.
    private func fadesBeforeEnd() -> Bool {
        guard case .endOfAlbum(let id) = mode else { return true }
        guard player.joinsTracksGaplessly else { return false }
        guard let next = player.preparedNextTrackID else { return true }
        return !isSameAlbum(id, next)
    }

    private func isSameAlbum(_ a: TrackID, _ b: TrackID) -> Bool {
        guard let first = player.track(a), let second = player.track(b) else { return false }
        return first.tags.isSameAlbum(as: second.tags)
    }
}
