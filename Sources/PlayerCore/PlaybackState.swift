/// What the user asked for, and what MPRIS shows as PlaybackStatus.
///
/// It changes only on a user command (or an interruption, the end of the queue, a failure that stops
/// everything), never on the pipeline's own state changes, so it does not flap during seeks or track
/// changes (GStreamer passes through PAUSED and NULL there: docs/platform.md, "GStreamer behaviour").
/// Upstream: by design, not a bug (a flushing seek pauses the sinks; a new URI needs NULL or READY): it stays.
public enum PlaybackStatus: String, Equatable, Sendable {
    case playing, paused, stopped
}

/// The user's intent combined with the engine's progress, for display and logs.
public enum PlaybackState: String, Equatable, Sendable {
    case stopped
    /// An item was given to the engine and has not started yet.
    case loading
    /// Playing is wanted but the network buffer is refilling.
    case buffering
    case playing
    case paused
    /// Playback stopped because tracks failed; the next command clears it.
    case failed
}

/// How the queue repeats (MPRIS LoopStatus None, Track, Playlist).
public enum LoopMode: String, Equatable, Sendable {
    case none, track, playlist
}

/// What a client may ask for now (MPRIS CanGoNext, CanGoPrevious, CanPlay, CanPause, CanSeek).
public struct PlayerCapabilities: Equatable, Sendable {
    public var canGoNext = false
    public var canGoPrevious = false
    /// True whenever there is a current track (GNOME Shell hides players while CanPlay is false).
    public var canPlay = false
    public var canPause = false
    /// The current track is known to be seekable.
    public var canSeek = false
    public init() {}
}

/// Invalid arguments the caller can turn into D-Bus errors.
public enum PlayerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Rate outside `Player.rateRange`, or NaN.
    case invalidRate(Double)
    /// Volume that is NaN (other values are clamped).
    case invalidVolume(Double)

    public var description: String {
        switch self {
        case .invalidRate(let rate): return "rate \(rate) is outside \(Player.rateRange)"
        case .invalidVolume(let volume): return "volume \(volume) is not a number"
        }
    }

    // NaN never equals itself; compare the bit patterns so tests can assert the exact error.
    public static func == (a: PlayerError, b: PlayerError) -> Bool {
        switch (a, b) {
        case (.invalidRate(let x), .invalidRate(let y)), (.invalidVolume(let x), .invalidVolume(let y)):
            return x.bitPattern == y.bitPattern
        default: return false
        }
    }
}
