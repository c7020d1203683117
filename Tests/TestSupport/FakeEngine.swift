import EventLoop
import PlayerCore

/// An `AudioEngine` without sound that keeps the contract the way the GStreamer engine does, so the
/// same contract tests pass against both: events arrive later on the loop (`EventLoop.post`), never
/// inside the call; the position moves with the loop's monotonic clock times the rate; at the end it
/// switches to the prepared item (`.trackStarted`) or reports `.endOfStream`; events still on their way
/// for an item that `load` or `stop` replaced are dropped, as a flushed GStreamer bus drops them.
public final class FakeEngine: AudioEngine {
    /// Every call the engine received, in order, for assertions.
    public enum Command: Equatable {
        case load(EngineItem, at: Duration, playing: Bool)
        case prepareNext(EngineItem?)
        case update(EngineItem)
        case play, pause, stop
        case playOnNewOutput(device: String?)
        case seek(Duration, exact: Bool)
        case setRate(Double)
        case setVolume(Double)
    }

    /// What the fake finds at a URI.
    public struct Media {
        public var duration: Duration?
        public var seekable: Bool
        public var tags: TrackTags
        /// When set, loading (or switching to) the URI fails with it.
        public var failure: EngineError?
        public init(duration: Duration? = .seconds(180), seekable: Bool = true, tags: TrackTags = TrackTags(),
                    failure: EngineError? = nil) {
            self.duration = duration
            self.seekable = seekable
            self.tags = tags
            self.failure = failure
        }
    }

    public weak var delegate: AudioEngineDelegate?
    /// Media per URI; other URIs get `defaultMedia`.
    public var media: [String: Media] = [:]
    public var defaultMedia = Media()
    /// Media seconds that pass per real second at rate 1, so tests need not wait for whole tracks;
    /// 0 freezes the clock (only `elapse` and `finishCurrentTrack` move the playhead).
    public var timeScale: Double = 1 { didSet { rebase(); scheduleEnd() } }

    public private(set) var commands: [Command] = []
    public private(set) var current: EngineItem?
    public private(set) var prepared: EngineItem?
    public private(set) var isPlaying = false
    public private(set) var rate = 1.0
    public private(set) var volume = 1.0

    private var basePosition = Duration.zero
    private var anchor = EventLoop.monotonicMicroseconds
    private var endTimer: LoopSource?
    /// Bumped by `load` and `stop`: events posted before belong to a replaced item.
    private var generation = 0
    /// Events posted and not yet delivered (or dropped).
    public private(set) var eventsInFlight = 0

    public init() {}

    // MARK: AudioEngine

    public func load(_ item: EngineItem, at position: Duration, playing: Bool) {
        commands.append(.load(item, at: position, playing: playing))
        generation += 1
        start(item, at: position, playing: playing)
    }

    public func prepareNext(_ item: EngineItem?) {
        commands.append(.prepareNext(item))
        prepared = item
    }

    public func update(_ item: EngineItem) {
        commands.append(.update(item))
        if current?.id == item.id { current = item }
    }

    public func play() {
        commands.append(.play)
        start()
    }

    /// Plays as `play` does: the fake's output has no clock to renew.
    public func playOnNewOutput(device: String?) {
        commands.append(.playOnNewOutput(device: device))
        start()
    }

    private func start() {
        guard current != nil, !isPlaying else { return }
        rebase()
        isPlaying = true
        scheduleEnd()
    }

    public func pause() {
        commands.append(.pause)
        guard isPlaying else { return }
        rebase()
        isPlaying = false
        scheduleEnd()
    }

    public func stop() {
        commands.append(.stop)
        generation += 1
        current = nil
        prepared = nil
        isPlaying = false
        basePosition = .zero
        scheduleEnd()
    }

    public func seek(to position: Duration, exact: Bool) {
        commands.append(.seek(position, exact: exact))
        guard let current else { return }
        basePosition = clamp(position, for: current)
        anchor = EventLoop.monotonicMicroseconds
        post(.seekCompleted(basePosition))
        scheduleEnd()
    }

    public func setRate(_ rate: Double) {
        commands.append(.setRate(rate))
        rebase()
        self.rate = rate
        scheduleEnd()
    }

    public func setVolume(_ volume: Double) {
        commands.append(.setVolume(volume))
        self.volume = volume
    }

    public var position: Duration? {
        guard let current else { return nil }
        guard isPlaying else { return basePosition }
        let elapsed = Double(EventLoop.monotonicMicroseconds - anchor) / 1_000_000 * rate * timeScale
        return clamp(basePosition + .seconds(elapsed), for: current)
    }

    // MARK: Test hooks

    /// Forgets the recorded commands, so a test can assert only what follows.
    public func clearCommands() { commands = [] }

    /// Jumps to the end of the current item now, as if it had played out.
    public func finishCurrentTrack() {
        guard let current else { return }
        basePosition = mediaInfo(current).duration ?? basePosition
        reachEnd()
    }

    /// Moves the playhead on by `time` of media, silently, as if it had played (at the end, it ends).
    public func elapse(_ time: Duration) {
        guard let current else { return }
        let target = (position ?? .zero) + time
        if let length = mediaInfo(current).duration, target >= length { finishCurrentTrack(); return }
        basePosition = target
        anchor = EventLoop.monotonicMicroseconds
        scheduleEnd()
    }

    /// Runs the loop until every event posted so far, and every event those caused, has been delivered.
    @discardableResult
    public func deliverEvents(timeout: Double = 2) -> Bool {
        EventLoop.main.run(until: { eventsInFlight == 0 }, timeout: timeout)
    }

    /// Delivers any event to the delegate at once, as the loop would.
    public func emit(_ event: AudioEngineEvent) {
        delegate?.engine(self, didEmit: event)
    }

    // MARK: Playing

    private func mediaInfo(_ item: EngineItem) -> Media { media[item.uri] ?? defaultMedia }

    private func start(_ item: EngineItem, at position: Duration, playing: Bool) {
        let info = mediaInfo(item)
        if let failure = info.failure {
            current = nil
            isPlaying = false
            scheduleEnd()
            post(.failed(item.id, failure))
            return
        }
        current = item
        basePosition = clamp(position, for: item)
        anchor = EventLoop.monotonicMicroseconds
        isPlaying = playing
        scheduleEnd()
        // The order playbin reports a new stream in: STREAM_START, then duration and seekability, then TAGs.
        post(.trackStarted(item.id))
        post(.duration(item.id, info.duration))
        post(.seekable(item.id, info.seekable))
        if info.tags != TrackTags() { post(.tags(item.id, info.tags)) }
    }

    /// The current item has played out: on to the prepared one, gaplessly, or end of stream.
    private func reachEnd() {
        guard let ended = current else { return }
        if let next = prepared {
            prepared = nil
            start(next, at: .zero, playing: true)
        } else {
            isPlaying = false
            scheduleEnd()
            post(.endOfStream(ended.id))
        }
    }

    /// Folds the time played so far into `basePosition`, before the rate or clock changes.
    private func rebase() {
        if let now = position { basePosition = now }
        anchor = EventLoop.monotonicMicroseconds
    }

    /// A one-shot timer for the moment the item ends at the current rate: no polling.
    private func scheduleEnd() {
        endTimer?.cancel()
        endTimer = nil
        guard isPlaying, rate * timeScale > 0, let current, let length = mediaInfo(current).duration,
              let now = position else { return }
        let remaining = Double((length - now) / .microseconds(1)) / 1_000_000
        endTimer = EventLoop.main.schedule(after: remaining / (rate * timeScale)) { [weak self] in
            self?.reachEnd()
        }
    }

    private func clamp(_ position: Duration, for item: EngineItem) -> Duration {
        let length = mediaInfo(item).duration ?? position
        return min(max(position, .zero), length)
    }

    private func post(_ event: AudioEngineEvent) {
        let sent = generation
        eventsInFlight += 1
        EventLoop.main.post { [weak self] in
            guard let self else { return }
            defer { self.eventsInFlight -= 1 }
            guard self.generation == sent else { return }
            self.delegate?.engine(self, didEmit: event)
        }
    }
}

extension FakeEngine {
    /// A fake whose position moves only when a test says so (`timeScale` 0), and a Player on it: for tests of
    /// what drives the player or follows it, not of playback.
    public static func stillPlayer() -> (engine: FakeEngine, player: Player) {
        let engine = FakeEngine()
        engine.timeScale = 0
        return (engine, Player(engine: engine))
    }
}
