/// How long the sound fades, per case; zero is no fade (each command reaches the engine as it comes).
public struct Fades: Equatable, Sendable {
    /// Pause and Stop fade out over this, Play fades in over it.
    public var pause: Duration
    /// A track the user skips away from (Next, Previous, GoTo, OpenUri) fades out over this before the next loads.
    public var skip: Duration

    public init(pause: Duration = .zero, skip: Duration = .zero) {
        self.pause = pause
        self.skip = skip
    }
}

/// An engine that fades: it stands between the core and the real engine, and ramps the volume the engine plays
/// at before a pause, a stop or a skip takes effect, and after a play.
///
///   Player ──pause()──▶ FadingEngine ──setVolume(v·level), every 10 ms, level 1 → 0──▶ engine ──▶ … pause()
///
/// The core changes PlaybackStatus at the call; the engine is told to pause (or stop, or load the track skipped
/// to) when the ramp reaches 0, so the sound stops at the end of the fade. The ramp goes through the engine's
/// volume, which on PulseAudio and PipeWire is the stream's volume at the sound server: it acts on what is heard
/// now, where a ramp on the samples would be heard only after the second of sound the server holds. The sleep
/// timer's fade goes the same way (`Player.fadeLevel` reaches `setVolume`, and the level here multiplies it).
/// The ramp keeps its own time (`Ramp`, `longestStep`): a loop held up does not make it jump when it runs again.
/// No ramp sent from this process can go on while the process is held up; one on the samples could (they are
/// made ahead), at the cost of being heard that second late.
///
/// Whatever comes during a fade does the obvious thing: Play during a pause's fade ramps back up from where the
/// level is; Pause during a fade-in ramps down from there; a second skip replaces the track waiting to load and
/// the fade goes on; a Stop during a pause's fade stops at its end; anything else (a seek, a load, a rate…)
/// first does what the fade was waiting to do, at once. With both durations zero nothing is ever delayed or
/// ramped. Loop thread only, like every engine call; the clock's timers run there too.
public final class FadingEngine: AudioEngine, AudioEngineDelegate {
    /// How often the volume steps along a ramp.
    static let step = Duration.milliseconds(10)

    /// What happens when a ramp down ends.
    enum Ending: Equatable {
        case pause, stop
        case load(EngineItem, at: Duration, playing: Bool)
    }

    /// The longest time between two steps of a ramp that it follows: a step later than that is taken as the loop
    /// held up (a loaded machine; quaverd stopped for 300 ms) and moves the ramp on by one step's time only. The
    /// level stood where it was meanwhile, as the sound server played on, and the ramp carries on from there at
    /// its rate: it lasts that much longer but is heard whole, where one that followed the clock jumped by the
    /// time missed (a third of the full level after a 300 ms hold of a fade in of a second).
    static let longestStep = Duration.milliseconds(50)

    /// A ramp of the level from `from` to `to` over `length` of its own time, which moves with the clock's except
    /// across a hold (`longestStep`).
    struct Ramp {
        let from: Double, to: Double, length: Duration
        /// How much of the ramp has passed, and the clock's time when it last moved.
        private var done = Duration.zero, moved: Duration

        init(from: Double, to: Double, length: Duration, now: Duration) {
            (self.from, self.to, self.length, moved) = (from, to, length, now)
        }

        /// Moves the ramp on to `now`; the level there.
        mutating func level(at now: Duration) -> Double {
            let elapsed = max(now - moved, .zero)
            done += elapsed > FadingEngine.longestStep ? FadingEngine.step : elapsed
            moved = now
            guard length > .zero, done < length else { return to }
            return from + (to - from) * (done / length)
        }
    }

    public weak var delegate: AudioEngineDelegate?
    private let engine: AudioEngine
    private let clock: SleepClock
    private let fades: Fades
    /// The volume the core asked for (its fade level included); the engine plays at `asked × level`.
    private var asked = 1.0
    /// While a fade out waits to pause, stop or load: the volume asked when it began, which a raise during the
    /// fade does not pass (the sleep timer restores its level right after its pause, which would jump back up).
    private var ceiling: Double?
    /// Where the ramp is: 1 is full, 0 silent (after a faded pause or stop, until the next play).
    private var level = 1.0
    /// A fade in ramps from the call, on the clock, not from when the engine's position first moves: after a
    /// resume pulsesink's position stood still for up to 0.65 s while the sound was already heard (libpulse's
    /// clock of a corked stream runs on to the end of what its sink holds, and GStreamer's audio clock never goes
    /// back), so a ramp held until then played that much of the track at volume 0 (3 Play calls of 10 in
    /// FadesOnPulseAudioTests). Neither the position nor the call sees a sound server that starts the stream late.
    private var ramp: Ramp?
    private var ending: Ending?
    /// What the core prepared while a skipped-to track waits to load: given after that load.
    private var nextWhileWaiting: EngineItem??
    /// Whether the engine was last told to play (a load playing, or play): only then is there sound to fade.
    private var sounding = false
    private var tick: AnyObject?
    /// Set by a load after a faded skip: the volume is given again when the new track starts, and twice more
    /// (see `restoreLevelSilently`).
    private var volumeAgainAtStart = false
    private var volumeAgain: AnyObject?
    /// After the new track's start: WirePlumber restores the volume it saved of our last stream when the new
    /// stream's node appears, which can come after the start.
    static let volumeAgainAfterStart: [Duration] = [.milliseconds(300), .seconds(1)]

    /// `engine` behind `fades`, or `engine` itself when both are 0: nothing stands between them then.
    public static func around(_ engine: AudioEngine, fades: Fades, clock: SleepClock) -> AudioEngine {
        fades == Fades() ? engine : FadingEngine(engine, fades: fades, clock: clock)
    }

    public init(_ engine: AudioEngine, fades: Fades, clock: SleepClock) {
        self.engine = engine
        self.fades = fades
        self.clock = clock
        engine.delegate = self
    }

    // MARK: AudioEngine

    public func load(_ item: EngineItem, at position: Duration, playing: Bool) {
        finishWaiting(replaced: true)
        engine.load(item, at: position, playing: playing)
        sounding = playing
        // Play after Stop (or after a faded pause) loads again: it fades in like Play.
        if playing, level < 1 { rampUp() } else if !playing, level < 1, fades.pause == .zero { setLevel(1) }
    }

    public func skip(to item: EngineItem, at position: Duration, playing: Bool) {
        if case .load? = ending { return ending = .load(item, at: position, playing: playing) }  // a second skip
        guard fades.skip > .zero, sounding, level > 0, ending == nil else { return load(item, at: position, playing: playing) }
        engine.prepareNext(nil)  // the old track must not switch gaplessly to anything while it fades
        ending = .load(item, at: position, playing: playing)
        nextWhileWaiting = nil
        rampDown(over: fades.skip)
    }

    public func prepareNext(_ item: EngineItem?) {
        if case .load? = ending { return nextWhileWaiting = .some(item) }
        engine.prepareNext(item)
    }

    public func update(_ item: EngineItem) {
        if case .load(let waiting, let at, let playing)? = ending {
            if waiting.id == item.id { ending = .load(item, at: at, playing: playing) }
            if case let next?? = nextWhileWaiting, next.id == item.id { nextWhileWaiting = .some(item) }
            return
        }
        engine.update(item)
    }

    public func play() {
        resume { $0.play() }
    }

    public func playOnNewOutput(device: String?) {
        resume { $0.playOnNewOutput(device: device) }
    }

    /// A pause still fading is called off, whatever waited for a fade's end happens now, then `start` plays
    /// and the volume comes back up.
    private func resume(_ start: (AudioEngine) -> Void) {
        if ending == .pause { (ending, ceiling) = (nil, nil) } else { finishWaiting() }
        start(engine)
        sounding = true
        if level < 1 { rampUp() }
    }

    public func pause() {
        if case .load(let item, let at, _)? = ending {  // the chosen track loads paused, and the fade ends there
            ending = .load(item, at: at, playing: false)
            return finishWaiting()
        }
        guard fades.pause > .zero, sounding, level > 0, ending == nil else { return pauseNow() }
        ending = .pause
        rampDown(over: fades.pause)
    }

    public func stop() {
        if case .load? = ending { finishWaiting(replaced: true) }
        guard fades.pause > .zero, sounding, level > 0 else { return stopNow() }
        if ending == nil { rampDown(over: fades.pause) }
        ending = .stop
    }

    public func seek(to position: Duration, exact: Bool) {
        finishWaiting()
        engine.seek(to: position, exact: exact)
    }

    public func setRate(_ rate: Double) { engine.setRate(rate) }
    public func setCrossfade(seconds: Double) { engine.setCrossfade(seconds: seconds) }

    public func setVolume(_ volume: Double) {
        asked = volume
        engine.setVolume(playedVolume)
    }

    /// While a skipped-to track waits to load, nothing of it is known yet; else the engine's figures.
    public func statistics() -> DeliveryStatistics? {
        if case .load? = ending { return nil }
        return engine.statistics()
    }

    /// While a skipped-to track waits to load, where it will start; else the engine's.
    public var position: Duration? {
        if case .load(_, let at, _)? = ending { return at }
        return engine.position
    }

    // MARK: AudioEngineDelegate

    /// While a skipped-to track waits, events are the old track's, which the core has left: they are dropped,
    /// and its end (or failure) loads the waiting track at once. Sound-server events always pass.
    public func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) {
        if case .load? = ending {
            switch event {
            case .interruption, .outputLost: break
            case .endOfStream, .failed: return finishWaiting()
            default: return
            }
        }
        if case .trackStarted = event, volumeAgainAtStart {
            volumeAgainAtStart = false
            giveVolumeAgain(Self.volumeAgainAfterStart[...])
        }
        delegate?.engine(self, didEmit: event)
    }

    // MARK: Ramps

    /// What the engine plays at: the volume asked, under the ceiling of a fade out, times the ramp's level.
    private var playedVolume: Double { min(asked, ceiling ?? asked) * level }

    private func rampUp() {
        guard fades.pause > .zero else { return setLevel(1) }
        start(Ramp(from: level, to: 1, length: fades.pause * (1 - level), now: clock.now))
    }

    private func rampDown(over length: Duration) {
        ceiling = min(asked, ceiling ?? asked)
        start(Ramp(from: level, to: 0, length: length * level, now: clock.now))
    }

    private func start(_ ramp: Ramp) {
        self.ramp = ramp
        advance()
    }

    /// Sets the level for now; at the ramp's end, does what waited for it.
    private func advance() {
        guard var ramp else { return }
        setLevel(ramp.level(at: clock.now))
        self.ramp = ramp
        if level == ramp.to {
            self.ramp = nil
            tick = nil
            if ramp.to == 0 { finishWaiting() }
        } else {
            tick = clock.schedule(after: Self.step) { [weak self] in self?.advance() }
        }
    }

    private func setLevel(_ new: Double) {
        guard new != level else { return }
        level = new
        engine.setVolume(playedVolume)
    }

    /// Does at once what a ramp down waits for (the ramp ends where it is). `replaced`: a load or stop that
    /// follows makes a waiting load pointless.
    private func finishWaiting(replaced: Bool = false) {
        guard let waiting = ending else { return }
        ending = nil
        ceiling = nil
        ramp = nil
        tick = nil
        switch waiting {
        case .pause: pauseNow()
        case .stop: stopNow()
        case .load(let item, let position, let playing):
            guard !replaced else { return }
            if playing { restoreLevelSilently() }  // a skip fades the old track only: the new one starts at full volume
            engine.load(item, at: position, playing: playing)
            volumeAgainAtStart = true
            sounding = playing
            if case .some(let next)? = nextWhileWaiting { engine.prepareNext(next) }
            nextWhileWaiting = nil
        }
    }

    /// Full level again on the old track's stream before a load replaces it, paused first so that nothing of it is
    /// heard, and again when the new track starts and shortly after: WirePlumber (restore-stream.lua, restore-props)
    /// gives a new stream of ours the volume it saved of the last one, which may be one the ramp passed through (the
    /// track after a faded skip stayed silent, or quieter, on PipeWire: in 2 runs of 2 with the full volume set only
    /// after the load, 1 of 4 with the pause alone, 2 of 8 quieter with one more at the start).
    private func restoreLevelSilently() {
        guard level < 1 else { return }
        if sounding { engine.pause() }
        setLevel(1)
    }

    /// The volume now, and again after each of `delays` (counted from now, one after the other's time).
    private func giveVolumeAgain(_ delays: ArraySlice<Duration>, after elapsed: Duration = .zero) {
        engine.setVolume(playedVolume)
        guard let next = delays.first else { return volumeAgain = nil }
        volumeAgain = clock.schedule(after: next - elapsed) { [weak self] in self?.giveVolumeAgain(delays.dropFirst(), after: next) }
    }

    private func pauseNow() {
        engine.pause()
        sounding = false
    }

    /// A faded stop leaves the level at 0: the Play that loads again fades in.
    private func stopNow() {
        engine.stop()
        sounding = false
    }
}
