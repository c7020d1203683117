/// What the state saver keeps between runs, and what the daemon restores at start.
public struct PlayerSession: Equatable, Sendable {
    /// The queue, already in the queue's stored form (a long one is converted off the loop thread).
    public var entries: PreparedEntries
    public var tracks: [QueueEntry] {
        get { entries.entries }
        set { entries = PreparedEntries(newValue) }
    }
    /// Index into `tracks` of the current track; the first track when `nil` or out of range.
    public var currentIndex: Int?
    public var position: Duration
    /// `.paused` (the usual) loads the current track paused at `position`; `.playing` plays from there;
    /// `.stopped` loads nothing (and Play starts at the beginning).
    public var status: PlaybackStatus
    public var volume: Double
    public var rate: Double
    public var loopMode: LoopMode
    public var shuffle: Bool

    public init(tracks: [QueueEntry], currentIndex: Int? = nil, position: Duration = .zero,
                status: PlaybackStatus = .paused, volume: Double = 1, rate: Double = 1,
                loopMode: LoopMode = .none, shuffle: Bool = false) {
        self.init(entries: PreparedEntries(tracks), currentIndex: currentIndex, position: position, status: status,
                  volume: volume, rate: rate, loopMode: loopMode, shuffle: shuffle)
    }

    public init(entries: PreparedEntries, currentIndex: Int? = nil, position: Duration = .zero,
                status: PlaybackStatus = .paused, volume: Double = 1, rate: Double = 1,
                loopMode: LoopMode = .none, shuffle: Bool = false) {
        self.entries = entries
        self.currentIndex = currentIndex
        self.position = position
        self.status = status
        self.volume = volume
        self.rate = rate
        self.loopMode = loopMode
        self.shuffle = shuffle
    }

    public static func == (a: PlayerSession, b: PlayerSession) -> Bool {
        a.tracks == b.tracks && a.currentIndex == b.currentIndex && a.position == b.position && a.status == b.status
            && a.volume == b.volume && a.rate == b.rate && a.loopMode == b.loopMode && a.shuffle == b.shuffle
    }
}

extension Player {
    /// The session as it is now, with the live position and what is known of every track.
    public var session: PlayerSession {
        PlayerSession(tracks: queue.tracks.map { QueueEntry(uri: $0.uri, tags: $0.tags, duration: $0.duration) },
                      currentIndex: currentTrackID.flatMap(queue.index(of:)), position: position,
                      status: status, volume: volume, rate: rate, loopMode: loopMode, shuffle: isShuffled)
    }

    /// Replaces everything with a saved session. Values a saved file may hold out of range are clamped
    /// (the rate and volume setters' clamping policies); a position past the track's known length starts it over.
    public func restore(_ session: PlayerSession) {
        changing {
            userActed()
            try? setVolume(session.volume)
            setRate(clamping: session.rate)
            loopMode = session.loopMode
            status = .stopped
            replaceQueue(with: session.entries, current: session.currentIndex, shuffled: session.shuffle)
            guard let current = currentTrack, session.status != .stopped else { return }
            status = session.status
            let position = session.position <= (current.duration ?? session.position) ? session.position : .zero
            load(current.id, at: max(.zero, position), playing: session.status == .playing)
        }
    }
}
