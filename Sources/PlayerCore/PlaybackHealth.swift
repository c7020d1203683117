// Playback health: what AVPlayer tells its apps (loadedTimeRanges, reasonForWaitingToPlay, an item's status
// and error, its access log) and MPRIS has no words for. The engine reports what it downloaded (`.buffered`)
// and answers `statistics()`; the core adds what only it knows: why nothing is heard, each track's outcome,
// the stalls of the current track.

/// A stretch of the current track, in playing time from its start.
public struct TimeSpan: Equatable, Sendable {
    public let start: Duration
    public let end: Duration
    public init(start: Duration, end: Duration) {
        self.start = start
        self.end = end
    }
}

/// Why nothing is heard although the user asked for it (or an interruption will give it back by itself).
public enum WaitingReason: Equatable, Sendable, CaseIterable {
    /// Playing, or paused or stopped by the user: nothing is awaited.
    case none
    /// The current track is being opened: its first answer, its type, its first samples.
    case loading
    /// The network buffer is refilling: playing goes on at 100 %.
    case network
    /// The sound output went away (a sound server or snapserver stopped, a device unplugged); playing resumes
    /// when it is back.
    case outputGone
    /// The desktop paused us for a while (a phone call, sleep); playing resumes when that ends.
    case interruption
}

/// Where a queued track stands, as far as this queue has tried it.
public enum TrackStatus: Equatable, Sendable {
    /// Not tried since it was queued.
    case unknown
    /// The current track, being opened.
    case loading
    /// It started playing (now or earlier).
    case ready
    /// It could not be played; the error of its latest try.
    case failed(EngineError)
}

/// What is known of the delivery of the current track (`quaver stats`).
public struct DeliveryStatistics: Equatable, Sendable {
    /// Bytes received from the network for this play (0 for a local file, or one played from the cache).
    public var bytesFetched: UInt64 = 0
    /// Bytes of the file on disk now: the whole file for a local one, the cached part for a remote one.
    public var bytesPresent: UInt64?
    /// The file's length in bytes, once known; nil for a live stream.
    public var bytesTotal: UInt64?
    /// Requests that failed and were tried again.
    public var retries = 0
    /// Times the sound stopped to wait for data after the track had started (set by the core).
    public var stalls = 0
    /// Average bits per second: the file's length over its playing time; nil until both are known.
    public var bitrate: Int?
    /// The GStreamer element decoding it (`flacdec`, `mpg123audiodec`…), once it runs.
    public var decoder: String?

    public init() {}
}

/// What becomes of a queued track once tried: kept per queue entry, forgotten when it leaves the queue.
enum TrackOutcome: Equatable {
    case started
    case failed(EngineError)
}

extension Player {
    /// Why nothing is heard now; `.none` when sound plays or the user stopped it.
    public var waitingReason: WaitingReason {
        switch status {
        case .playing:
            if progress == .loading { return .loading }
            return bufferingPercent < 100 ? .network : .none
        case .paused where pausedByInterruption:
            return outputGone ? .outputGone : .interruption
        case .paused, .stopped:
            return .none
        }
    }

    /// The seconds of the current track already downloaded; empty for a local file or a live stream.
    public var bufferedRanges: [TimeSpan] {
        guard let buffered, buffered.track == currentTrackID else { return [] }
        return buffered.spans
    }

    /// How `id` fared in this queue; `.loading` for the current track while it opens.
    public func status(of id: TrackID) -> TrackStatus {
        if id == currentTrackID, id == loaded, progress == .loading { return .loading }
        switch trackOutcomes[id] {
        case .started?: return .ready
        case .failed(let error)?: return .failed(error)
        case nil: return .unknown
        }
    }

    /// The engine's figures for the current track with the core's count of stalls; nil when it is not loaded.
    public func statistics() -> DeliveryStatistics? {
        guard let current = currentTrackID, loaded == current else { return nil }
        var figures = engine.statistics() ?? DeliveryStatistics()
        figures.stalls = stalls.track == current ? stalls.count : 0
        return figures
    }

    // MARK: Bookkeeping (from engine events and queue edits)

    func recordBuffered(_ spans: [TimeSpan], of id: TrackID) {
        guard id == loaded, buffered?.track != id || buffered?.spans != spans else { return }
        buffered = (id, spans)
        note(.bufferedRanges)
    }

    func recordOutcome(_ outcome: TrackOutcome, of id: TrackID) {
        guard queue.contains(id) else { return }
        trackOutcomes[id] = outcome
    }

    /// A drop below 100 % after the loaded track started is a stall (the start's own buffering is loading).
    func countStall(from before: Int, to percent: Int) {
        guard let track = loaded, progress == .ready, before == 100, percent < 100 else { return }
        stalls = (track, stalls.track == track ? stalls.count + 1 : 1)
    }

    /// Forgets what is kept per entry of tracks that left the queue.
    func forgetOutcomes(after change: PlayerChange) {
        switch change {
        case .trackRemoved(let id): trackOutcomes[id] = nil
        case .queueReplaced: trackOutcomes = trackOutcomes.filter { queue.contains($0.key) }
        default: break
        }
    }
}
