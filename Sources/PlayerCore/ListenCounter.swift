/// Decides when a track counts as listened to and when it was skipped, by how much of it really played.
///
/// A listen counts once half the track or 4 minutes have played, whichever comes first (ListenBrainz's and
/// Last.fm's rule); a track left before 30 s had played, and before its end, was skipped. "Played" is measured
/// from the player's position, sampled on every change and by `sample()` (the adapter calls it every second while
/// playing): steps forward of a few seconds add up, while a seek's jump does not, so seeking to the middle of a
/// track does not make it a listen. The core owns no timers, so tests drive it with the fake engine's clock.
public final class ListenCounter: PlayerObserver {
    /// One play of one track: from when it became current (or restarted in a loop) to when it stopped being so.
    public struct Play: Equatable, Sendable {
        public let track: Track
        /// Seconds since 1970 when it started playing: the listen's identity for ListenBrainz (`listened_at`).
        public let startedAt: Int64
    }

    public enum Event: Equatable, Sendable {
        /// The track started playing (ListenBrainz's `playing_now`).
        case started(Play)
        /// Enough of it played: at most once per play.
        case listened(Play)
        /// Left before 30 s and before its end.
        case skipped(Play)
    }

    public static let skipLimit: Duration = .seconds(30)
    public static let listenCap: Duration = .seconds(240)
    /// The longest step between two samples that counts as playing: a sample a second apart at rate 2 moves 2 s;
    /// more is a jump (a seek the engine reported late, a stall recovered).
    static let longestStep: Duration = .seconds(5)

    private let player: Player
    private let now: () -> Int64
    private let report: (Event) -> Void
    private var play: Play?
    private var played: Duration = .zero
    private var lastPosition: Duration = .zero
    private var counted = false

    /// - Parameters:
    ///   - now: seconds since 1970, for `Play.startedAt`.
    ///   - report: called on the loop with each event as it happens.
    public init(player: Player, now: @escaping () -> Int64, report: @escaping (Event) -> Void) {
        self.player = player
        self.now = now
        self.report = report
        player.addObserver(self)
    }

    /// The playtime a listen needs for a track of `duration` (nil: a stream of unknown length).
    public static func threshold(for duration: Duration?) -> Duration {
        guard let duration, duration > .zero else { return listenCap }
        return min(duration / 2, listenCap)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .currentTrack, .status, .state:
            sample()
        case .seeked(let position):
            sample()
            restartIfLooped(at: position)
            lastPosition = position
        case .metadata(let id) where id == play?.track.id:
            sample()
        default:
            break
        }
    }

    /// Reads the position, adds what played since the last sample, and reports what that changed.
    public func sample() {
        guard let current = player.currentTrack, player.status == .playing else {
            if player.currentTrackID != play?.track.id { finish() }
            return
        }
        if current.id != play?.track.id { begin(current) }
        let position = player.position
        let step = position - lastPosition
        if step > .zero && step <= Self.longestStep * player.rate { played += step }
        lastPosition = position
        guard !counted, var play, played >= Self.threshold(for: current.duration ?? play.track.duration) else { return }
        counted = true
        play = Play(track: current, startedAt: play.startedAt)  // with the tags known by now
        self.play = play
        report(.listened(play))
    }

    /// How long, at the current rate, until the playing track would count as a listen: when to sample next for
    /// a timely count. Nil when nothing is playing or it counted already.
    public var timeUntilListen: Duration? {
        guard let play, !counted, player.status == .playing else { return nil }
        let left = Self.threshold(for: player.currentTrack?.duration ?? play.track.duration) - played
        return max(.zero, left / max(player.rate, 0.1))
    }

    private func begin(_ track: Track) {
        finish()
        play = Play(track: track, startedAt: now())
        played = .zero
        counted = false
        lastPosition = player.position
        report(.started(Play(track: track, startedAt: play?.startedAt ?? 0)))
    }

    /// The play ends: a skip if it was left early, and not because it ended.
    private func finish() {
        guard let ended = play else { return }
        play = nil
        let length = ended.track.duration ?? player.track(ended.track.id)?.duration
        let reachedEnd = length.map { lastPosition >= $0 - .seconds(2) } ?? false
        if !counted && played < Self.skipLimit && !reachedEnd { report(.skipped(ended)) }
    }

    /// A track looping on itself starts again at 0 without changing: a new play once the last one counted.
    private func restartIfLooped(at position: Duration) {
        guard counted, position < .seconds(1), let current = player.currentTrack, current.id == play?.track.id else { return }
        play = nil
        begin(current)
    }
}
