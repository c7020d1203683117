/// One change in the player, as its observers learn of it.
///
/// Changes are emitted only when a value really changed, after the command or engine event that
/// caused them has finished, so every property read from the player inside `playerDidChange` is
/// already the new one. Values mirror the player's readable properties.
public enum PlayerChange: Equatable, Sendable {
    /// `Player.status` (MPRIS PlaybackStatus).
    case status(PlaybackStatus)
    /// `Player.state`.
    case state(PlaybackState)
    /// `Player.currentTrackID`; `nil` when the queue is empty.
    case currentTrack(TrackID?)
    /// Something in `Player.track(id)` changed: tags, duration or seekability.
    case metadata(TrackID)
    case volume(Double)
    case rate(Double)
    case loopMode(LoopMode)
    case shuffle(Bool)
    case capabilities(PlayerCapabilities)
    /// `Player.bufferingPercent`.
    case buffering(percent: Int)
    /// `Player.bufferedRanges`: more of the current remote track is downloaded.
    case bufferedRanges
    /// Tracks inserted in this order right after `after` (`nil`: at the start of the queue).
    case tracksAdded([TrackID], after: TrackID?)
    case trackRemoved(TrackID)
    /// The track now follows `after` (`nil`: it is first).
    case trackMoved(TrackID, after: TrackID?)
    /// The whole queue was replaced or cleared: read `Player.tracks` again.
    case queueReplaced
    /// The position jumped (a completed seek, or a loop restart of the same track: docs/mpris.md, "Seeked").
    case seeked(Duration)
    /// The track could not be played; the player has moved on (or stopped if every track failed).
    case trackFailed(TrackID, EngineError)
}

/// Learns of every change in a player: the MPRIS adapter, the state saver.
public protocol PlayerObserver: AnyObject {
    func playerDidChange(_ change: PlayerChange)
}

/// Observers held weakly, so an adapter going away needs no unregistration.
struct ObserverList {
    private struct Entry { weak var observer: PlayerObserver? }
    private var entries: [Entry] = []

    mutating func add(_ observer: PlayerObserver) {
        entries.removeAll { $0.observer == nil || $0.observer === observer }
        entries.append(Entry(observer: observer))
    }

    mutating func remove(_ observer: PlayerObserver) {
        entries.removeAll { $0.observer == nil || $0.observer === observer }
    }

    func send(_ change: PlayerChange) {
        for entry in entries { entry.observer?.playerDidChange(change) }
    }
}
