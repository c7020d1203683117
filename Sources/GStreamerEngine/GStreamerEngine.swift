// PlayerCore's AudioEngine on GStreamer's playbin.
//
//   commands, bus messages, remote-file events, timers, a stuck playbin
//        │ (loop thread)
//        ▼
//   apply(EngineInput) ── the one place `state` (EngineState: a Phase and what is loaded) changes
//        │
//        ▼
//   playbin ──▶ [scaletempo] ──▶ configured sink ("pulsesink" by default)      built by the first load
//     │ about-to-finish, probes, source-setup (streaming threads): only StreamingSide, one lock
//     │ (the prepared item: Handover.swift; the switch to it runs on until `drained` ends: GroupSwitch.swift)
//     ▼
//   bus ── watch (loop thread) ──▶ apply(.bus) ──▶ AudioEngineEvent ──▶ delegate
//
// The first load builds the pipeline (and with it runs gst_init): a daemon that has loaded nothing holds
// neither (5.6 MB resident, docs/reliability.md). Until then every command acts as on an idle pipeline and
// keeps what it sets (the volume, the equaliser, the rate, the crossfade) for the pipeline the load builds
// (`makePipeline`, which also builds the one replacing a stuck playbin).
// Invariants: every state change is asked for and never waited for (ASYNC_DONE says when it is done), and
// runs off the loop with a bounded wait: a playbin that deadlocks is replaced and what was loaded goes on
// in the new one (Pipeline, PipelineReplacement.swift); events reach the delegate on the loop thread only.
// Commands are serialised on the loop thread: at most one seek is in flight in playbin; seeks and rate
// changes asked for meanwhile wait as one merged request (the newest target and rate win) and go out at
// its ASYNC_DONE (Seeking.swift); a load or stop first takes the pipeline to NULL, cancelling all of it.
// Every way down to NULL goes through `stopPipeline`, which keeps it apart from a switch to the next item
// (GroupSwitch) and renews the tempo filter. The other files compute decisions (Seeks, Phase.resumption)
// and carry out effects that change no state (bus reports, the bounded calls); this one applies them.
//
// The engine layer: may import PlayerCore, GStreamer, EventLoop, RemoteMedia, PublicText, swift-log and
// the standard libraries (Foundation, Glibc, Synchronization); no C module.
import EventLoop
import GStreamer
import Logging
import PlayerCore

public final class GStreamerEngine: AudioEngine {
    public weak var delegate: AudioEngineDelegate?
    let configuration: Configuration
    /// The playbin playing, with its output and filter: built by the first load, replaced when GStreamer deadlocks
    /// inside it; nil before the first load, or when none could be built.
    var pipeline: Pipeline?
    /// What the installed GStreamer offers (media types, the equaliser), told without starting GStreamer.
    public let features: InstalledFeatures
    /// Everything the streaming threads touch, behind one lock: the items handed over, the switch and the
    /// next file's check, the remote file served, the rate, ReplayGain's element and tags.
    let streaming = StreamingSide()
    let nextItemCheck: NextItemCheck
    /// The loop side's state: changed in this file only, by `apply` (and by `position`, its last good position).
    private(set) var state = EngineState()
    /// What the core was last told about the stream playing (BusHandling).
    var reported = StreamReport()
    /// Asks, while crossfade is on, whether the joint ahead is to overlap now.
    private var crossfadeTimer: LoopSource?

    /// Plays into `configuration.sink`, through a playbin for audio only that the first load builds: GStreamer is
    /// not started here. A sink that cannot be built fails that load, and every later one, with the reason.
    public init(configuration: Configuration = Configuration()) {
        Self.httpLibraryWatched
        self.configuration = configuration
        features = InstalledFeatures(keptIn: configuration.keptFeatures)
        nextItemCheck = NextItemCheck(streaming: streaming, timeout: .seconds(5))
    }

    /// Said once per process, in the log, when the first stream has GStreamer choose its libsoup
    /// (`GStreamer.httpLibraryChosen`; not at start-up, which would load it): streams GStreamer fetches itself
    /// (radio, HLS) run on libsoup 3 when libsoup 2.4 is missing or a libsoup 3 was loaded first, and on libsoup 3
    /// stopping one mid-request can crash the process (docs/platform.md).
    private static let httpLibraryWatched: Void = {
        GStreamer.httpLibraryChosen = { onLibsoup2 in
            guard !onLibsoup2 else { return }
            log.warning("libsoup 2.4 is missing (package libsoup2.4-1) or libsoup 3 was loaded first: radio and HLS run on libsoup 3, which can crash quaverd when a stream is stopped")
        }
    }()

    deinit {
        pipeline?.disconnect()
        _ = pipeline?.goToNull(switchTimeout: Self.switchTimeout, limit: Self.stateChangeLimit)
        state.loaded.remote?.file.close()
        streaming.reset(loading: nil)
    }

    /// The position heard now; the last good one while a seek, a load or a recovery is under way.
    public var position: Duration? {
        guard state.loaded.current != nil || state.phase.pendingStart != nil else { return nil }
        if case .prerolled(let seeks) = state.phase, seeks.inFlight == nil, let live = livePosition() {
            state.lastPosition = state.loaded.crossfade.map { $0.reported ? $0.heardPosition(live) : live } ?? live
        }
        return state.lastPosition
    }

    /// The one entry point of the loop side: every command, bus message, remote-file event, timer and stuck
    /// pipeline comes through here, on the loop thread.
    func apply(_ input: EngineInput) {
        switch input {
        case .load(let item, let position, let playing): loadItem(item, at: position, playing: playing)
        case .prepareNext(let item): prepareAfterCurrent(item)
        case .update(let item): refresh(item)
        case .play: startPlaying()
        case .playOnNewOutput(let device): restartOnNewOutput(device)
        case .pause: pausePlaying()
        case .stop: stopPlaying()
        case .seek(let position, let exact): seekLoaded(to: position, exact: exact)
        case .rate(let rate): changeRate(to: rate)
        case .volume(let volume): changeVolume(to: volume)
        case .equalizer(let gains): changeEqualizer(to: gains)
        case .bus(let message): busMessage(message)
        case .remoteFile(let event, let file): remoteFileReported(event, from: file)
        case .retryOutput: reconnect()
        case .outputLost(let reason): outputLost(reason)
        case .stuck(let what): restartInNewPipeline(stuckIn: what)
        case .crossfade(let seconds): changeCrossfade(to: seconds)
        case .crossfadeTick: armCrossfade()
        case .overlapStarted(let id): overlapStarted(id)
        case .overlapHeard(let id): overlapHeard(id)
        }
    }

    // MARK: Commands

    private func loadItem(_ item: EngineItem, at position: Duration, playing: Bool) {
        let checkedRead = streaming.preparedRead(of: item)  // loading the prepared item (Next)
        teardown()
        streaming.reset(loading: item)
        state.wantsPlaying = playing
        state.phase = .loading(Start(position: position))
        state.loaded.checkedRead = checkedRead.map { (item, $0) }
        begin(item)
    }

    /// During an overlap the core prepares the track after the incoming one: it waits until playbin plays that.
    private func prepareAfterCurrent(_ item: EngineItem?) {
        if var crossfade = state.loaded.crossfade {
            if crossfade.reported {
                crossfade.preparedMeanwhile = .some(item)
                state.loaded.crossfade = crossfade
                return
            }
            if item.map({ !$0.continuesAlbum && $0.id == crossfade.incoming.id && $0.uri == crossfade.incoming.uri }) != true {
                endCrossfade()
            }
        }
        prepareHandover(item)
    }

    private func refresh(_ item: EngineItem) {
        if let crossfade = state.loaded.crossfade, !crossfade.reported, item.id == crossfade.incoming.id, item.continuesAlbum {
            endCrossfade()
        }
        _ = streaming.refresh(item)
        if state.loaded.current?.id == item.id { state.loaded.current = item }
        let heardNext = streaming.pending.map { $0.id == item.id } ?? (state.loaded.current?.id == item.id)
        if heardNext, pipeline?.switchesAlbumMode == true { streaming.setAlbumGain(item.sharesAlbumWithNeighbour) }
    }

    private func startPlaying() {
        let resumes = state.loaded.pausedWhilePlaying
        state.loaded.pausedWhilePlaying = false
        state.wantsPlaying = true
        guard case .prerolled = state.phase, state.loaded.current != nil else { return }
        // Only a local file: a flush would throw away what a network item buffered, and the core's own pause
        // and Play around buffering would then refill, flush and refill again.
        if resumes, state.loaded.playbinURI?.hasPrefix("file:") == true {
            requestSeek(SeekRequest(target: state.phase.resumption(at: position).position, exact: true, report: false))
        }
        changeState(to: .playing)
    }

    /// The output's stream goes (NULL) and the loaded item starts again where it was, on a new stream connected
    /// to `device`, and plays. The sound server moved the old one while it was paused (its sink removed, then
    /// back), and pulsesink's clock does not come through that: libpulse counts a corked stream's time up to the
    /// end of what its sink holds (`calc_time`: a null sink holds up to 2 s), a move takes back what the old sink
    /// held, and the clock never goes back. After the sink's return the music played while the position stood
    /// at 0 (4 times in about 260 runs of OutputChoiceTests' sink-removed case, PulseAudio 16.1, GStreamer 1.22).
    /// Upstream: no issue found; libpulse's `calc_time` is unchanged in PulseAudio 17.
    private func restartOnNewOutput(_ device: String?) {
        guard case .prerolled = state.phase, let item = state.loaded.current else { return startPlaying() }
        // Paused, the output answers with the last sample it played, not from its clock: read afresh, as the
        // last reading may be from long before the pause.
        var start = state.phase.resumption(at: position)
        state.wantsPlaying = true
        stopPipeline()
        streaming.restart(item)
        start.applyRate = rate != 1
        start.restartsCurrent = true
        state.phase = .loading(start)
        state.lastPosition = start.position
        pipeline?.connectNewStream(to: device)
        startPlaybin(state.loaded.playbinURI ?? item.uri)
    }

    /// While loading, a playbin already asked for PLAYING (`startPlaybin`) is asked for PAUSED too: the
    /// core pauses on the first BUFFERING below 100 %, and a pipeline left going to PLAYING drains
    /// queue2 into decodebin as fast as it fills, so 100 % never came (measured on 12 KB/s).
    /// Upstream: no issue found; not retested after GStreamer 1.22.
    private func pausePlaying() {
        if let crossfade = state.loaded.crossfade {
            if crossfade.reported { return continueIncoming(crossfade, at: heardPosition(of: crossfade), playing: false) }
            endCrossfade()
        }
        let wasPlaying = state.wantsPlaying
        state.wantsPlaying = false
        let started: Bool
        switch state.phase {
        case .loading: started = state.loaded.playbinURI != nil
        case .prerolled:
            started = state.loaded.current != nil
            if started, wasPlaying { state.loaded.pausedWhilePlaying = true }
        case .idle, .recovering: started = false
        }
        if started { changeState(to: .paused) }
    }

    private func stopPlaying() {
        teardown()
        streaming.reset(loading: nil)
        state.wantsPlaying = false
    }

    /// While loading or recovering, the start moves; once prerolled, playbin seeks.
    private func seekLoaded(to position: Duration, exact: Bool) {
        if let crossfade = state.loaded.crossfade {
            if crossfade.reported {
                return continueIncoming(crossfade, at: position, playing: state.wantsPlaying, reportSeek: true)
            }
            endCrossfade()
        }
        switch state.phase {
        case .loading(var start):
            start.position = position
            start.reportSeek = true
            state.phase = .loading(start)
        case .recovering(var recovery):
            recovery.resume.position = position
            recovery.resume.reportSeek = true
            state.phase = .recovering(recovery)
        case .prerolled where state.loaded.current != nil:
            requestSeek(SeekRequest(target: position, exact: exact, report: true))
        case .prerolled, .idle: break
        }
    }

    /// A new rate reaches the sound through a flushing seek to where we are (at the newest target, if
    /// a seek waits). While loading, the segment may already have gone by: the first seek applies it.
    private func changeRate(to rate: Double) {
        let clamped = min(2, max(0.5, rate))
        guard clamped != self.rate else { return }
        streaming.rate = clamped
        if let crossfade = state.loaded.crossfade {
            if crossfade.reported {
                return continueIncoming(crossfade, at: heardPosition(of: crossfade), playing: state.wantsPlaying)
            }
            endCrossfade()
        }
        switch state.phase {
        case .loading(var start):
            start.applyRate = true
            state.phase = .loading(start)
        case .recovering(var recovery) where recovery.attempting:
            recovery.resume.applyRate = true
            state.phase = .recovering(recovery)
        case .prerolled where state.loaded.current != nil:
            let target = state.phase.resumption(at: position).position
            requestSeek(SeekRequest(target: target, exact: true, report: false))
        case .prerolled, .recovering, .idle: break
        }
    }

    private func changeVolume(to volume: Double) {
        let volume = min(1, max(0, volume))
        state.volume = volume
        bounded("a volume change") { $0.set("volume", volume) }
    }

    private func changeEqualizer(to gains: EqualizerGains) {
        state.equalizer = gains
        pipeline?.equalizer.set(gains)
        state.loaded.crossfade?.track.equalizer?.set(gains)  // the overlap's incoming track
    }

    // MARK: Loading

    /// Starts `item`: cacheable http(s) files first wait for their download's first answer (RemoteFile),
    /// local files go to playbin once their WAV layout is checked (`WAVGuard`), the rest as they are.
    private func begin(_ item: EngineItem) {
        if let refusal = pipelineRefusal() ?? WAVGuard.refusal(fileURI: item.uri) { return refuse(item, refusal) }
        guard let file = remoteFile(for: item) else { return startPlaybin(item.uri) }
        state.loaded.remote = (file, item)
        streaming.servedFile = file
        file.start()
    }

    /// `item` fails before it reaches playbin, told on the loop's next turn: the core loads the next item at once,
    /// so a queue of refused files (20 000 hostile WAVs) failed inside one call, a recursion as deep as the queue.
    private func refuse(_ item: EngineItem, _ reason: EngineError) {
        streaming.reset(loading: nil)
        state.phase = .idle
        EventLoop.main.post { [weak self] in self?.emit(.failed(item.id, reason)) }
    }

    /// The first load builds the pipeline, into the sink chosen then (`SoundOutput`, when the configuration asks
    /// for the check); nil once there is one. A sink GStreamer cannot build refuses this load and every later one.
    private func pipelineRefusal() -> EngineError? {
        guard pipeline == nil else { return nil }
        if case .refused(let reason) = state.output { return reason }
        let sink = state.output.sink ?? configuration.serverHint.map {
            SoundOutput.choose(configuration.sink, log: Self.log, serverHint: $0)
        } ?? configuration.sink
        do {
            pipeline = try makePipeline(sink: sink)
            state.output = .chosen(sink)
            features.registryIsUp()
            return nil
        } catch {
            let reason = EngineError(.outputUnavailable, "the sound output \"\(sink)\" cannot be built: \(error)")
            Self.log.error("\(reason.message); nothing plays until quaverd is restarted with another output")
            state.output = .refused(reason)
            return reason
        }
    }

    private func startPlaybin(_ uri: String) {
        guard let pipeline else { return giveUp(state.loaded.current ?? streaming.pending) }  // a stuck one not replaced
        state.loaded.playbinURI = uri
        pipeline.playbin.set("uri", uri)
        let wantsPlaying = state.wantsPlaying
        let startAtOnce = state.phase.pendingStart.map { wantsPlaying && $0.position == .zero } ?? wantsPlaying
        changeState(to: startAtOnce ? .playing : .paused)
    }

    /// Events of the loaded item's file, or of a gapless successor's already handed to playbin; a
    /// prepared file that is not playing yet reports nothing that matters (`canServe` says if it is ready).
    private func remoteFileReported(_ event: RemoteFileEvent, from file: RemoteFile) {
        let loaded = state.loaded.remote.flatMap { $0.file === file ? $0.item : nil }
        guard let item = loaded ?? streaming.handedItem(servedBy: file) else { return }
        switch event {
        case .ready: if state.loaded.playbinURI == nil { startPlaybin("appsrc://") }
        case .live:
            closeRemoteFile()
            state.loaded.liveStream = true
            startPlaybin(item.uri)
        case .buffering(let percent): emit(.buffering(percent: percent))
        case .complete: startPrefetchIfIdle()
        case .progress: reportBufferedRanges()
        case .failed(let kind, let text):
            teardown()
            streaming.reset(loading: nil)
            emit(.failed(item.id, EngineError(kind, text)))
        }
    }

    private func closeRemoteFile() {
        state.loaded.remote?.file.close()
        state.loaded.remote = nil
        streaming.servedFile = nil
    }

    /// Back to NULL (synchronous going down) and drop the old stream's queued messages, so nothing
    /// of it is mistaken for the next item's. READY is not enough: after a type-finding error playbin
    /// in READY fails the next URI too ("Could not determine type of stream", measured).
    /// Upstream: no issue found; not retested after GStreamer 1.22.
    private func teardown() {
        endCrossfade()
        giveBackLargeCoverOfLoadedItem()
        stopPipeline()
        pipeline?.connectStreamsAsConfigured()
        closeRemoteFile()
        state.phase = .idle
        state.loaded = Loaded()
        state.lastPosition = nil
        reported = StreamReport()
    }

    // MARK: Bus messages

    private func busMessage(_ message: Message) {
        switch message.kind {
        case .streamStart: streamStarted()
        case .asyncDone: asyncDone()
        case .error(let error): failed(error, from: message)
        case .missingPlugin(let description): state.loaded.pluginMissing = description
        case .endOfStream where state.loaded.crossfade?.reported == true: outgoingEndedInOverlap()
        default: report(message)
        }
    }

    /// The oldest item handed to playbin is now heard (or, while loading, prerolled).
    private func streamStarted() {
        guard let handed = streaming.streamStarted() else { return }
        let item = handed.item
        let restarted = state.phase.restartsCurrent && item == state.loaded.current
        state.loaded.current = item
        if restarted { return }
        let crossfaded = endCrossfade().flatMap { $0.reported && $0.incoming.id == item.id ? $0 : nil }
        if handed.isSuccessor { switchedGaplessly(to: handed) }
        reported = StreamReport()
        if crossfaded == nil { emit(.trackStarted(item.id)) }  // the core follows it since the overlap's start
        // A gapless successor has no ASYNC_DONE of its own (its rate comes with its segment: rateProbe).
        if handed.isSuccessor { reportStreamInfo() }
        if case .some(let next)? = crossfaded?.preparedMeanwhile { prepareHandover(next) }
    }

    /// playbin went on to the prepared item by itself (about-to-finish): the previous item's remote
    /// file is done with, and the new one's, if it plays from the cache, is already in the slot.
    private func switchedGaplessly(to handed: HandoverQueue.Handed) {
        giveBackLargeCoverOfLoadedItem()
        state.loaded.remote?.file.close()
        state.loaded.remote = handed.remote.map { ($0, handed.item) }
        if state.loaded.remote == nil { streaming.servedFile = nil }
        state.loaded.playbinURI = handed.remote == nil ? handed.item.uri : "appsrc://"
        state.loaded.liveStream = false
        state.loaded.checkedRead = handed.checkedRead.map { (handed.item, $0) }
    }

    private func asyncDone() {
        state.loaded.outputWorked = true
        if let start = state.phase.pendingStart {
            prerolled(from: start)
        } else if case .prerolled(let seeks) = state.phase, seeks.inFlight != nil {
            seekLanded()
        }
        reportStreamInfo()
    }

    /// The first ASYNC_DONE of a load, a restart or a recovery attempt: the start seek, then play as asked.
    private func prerolled(from start: Start) {
        let recovered = state.phase.isRecovering
        state.phase = .prerolled(Seeks())
        pipeline?.replacementsInARow = 0
        let prerolled = pipeline
        if start.position > .zero || start.applyRate || start.reportSeek {
            requestSeek(SeekRequest(target: start.position, exact: playsLocalFile, report: start.reportSeek))
        }
        // The seek found the pipeline stuck: the item starts again in a new one (the output is back all the same).
        guard pipeline === prerolled else {
            if recovered { announceRecovery() }
            return
        }
        if state.wantsPlaying { changeState(to: .playing) }
        if recovered { announceRecovery() }
    }

    /// Reports the first error of a stream once (GStreamer repeats them) and leaves the pipeline at
    /// NULL, ready for the next load. A lost sound server is recovered instead (see Recovery.swift).
    private func failed(_ error: GStreamerError, from message: Message) {
        let fromOutput = message.source.map { pipeline?.output.contains($0) == true } ?? false
        Self.log.debug("error from \(message.sourceName): \(error.message)")
        if fromOutput && (state.loaded.outputWorked || state.phase.isRecovering) { return outputLost(error.message) }
        guard let item = streaming.pending ?? state.loaded.current else { return }
        let failure = Self.failure(error, of: item, fromOutput: fromOutput, pluginMissing: state.loaded.pluginMissing)
        teardown()
        streaming.reset(loading: nil)
        emit(.failed(item.id, failure))
    }

    // MARK: Seeks (Seeking.swift decides)

    private func requestSeek(_ request: SeekRequest) {
        guard case .prerolled(let seeks) = state.phase else { return }
        state.lastPosition = request.target
        let (after, send) = seeks.asking(request)
        state.phase = .prerolled(after)
        if let send { sendSeek(send) }
    }

    /// ASYNC_DONE of the seek in flight: the waiting one goes out, or the burst is over.
    private func seekLanded() {
        guard case .prerolled(let seeks) = state.phase else { return }
        let (after, send, landed) = seeks.landing()
        state.phase = .prerolled(after)
        if let send { return sendSeek(send) }
        guard let landed else { return }
        let position = livePosition() ?? landed.target
        state.lastPosition = position
        if landed.report { emit(.seekCompleted(position)) }
    }

    /// A seek playbin refuses (not prerolled yet, no seekable stream) brings no ASYNC_DONE: the burst
    /// ends here, reporting where playback is, so the core never waits for it.
    private func sendSeek(_ request: SeekRequest) {
        guard let accepted = seekPlaybin(request) else { return }
        if !accepted { seekLanded() }
    }

    // MARK: The sound output lost (Recovery.swift)

    private func outputLost(_ reason: String) {
        guard !state.phase.isWaitingForOutput else { return }  // already waiting for the next attempt
        let adopted = adoptIncoming()
        let firstLoss = !state.phase.isRecovering
        let resume = state.phase.resumption(at: adopted ? state.lastPosition : position)
        state.phase = .recovering(Recovery(resume: resume, attempting: false, timer: nil))
        state.lastPosition = resume.position
        stopPipeline()
        announceLoss(reason, first: firstLoss)
        setRecoveryTimer(EventLoop.main.schedule(after: Self.recoveryInterval) { [weak self] in
            self?.apply(.retryOutput)
        })
    }

    private func reconnect() {
        guard case .recovering(var recovery) = state.phase else { return }
        guard let current = state.loaded.current else {
            state.phase = .idle
            return
        }
        guard let pipeline else { return giveUp(current) }  // a stuck one could not be replaced
        streaming.reset(loading: current)
        recovery.resume.applyRate = false
        recovery.attempting = true
        state.phase = .recovering(recovery)
        state.lastPosition = recovery.resume.position
        pipeline.playbin.set("uri", state.loaded.playbinURI ?? current.uri)
        Self.log.debug("trying the sound output again")
        changeState(to: .paused)
        // An attempt that neither prerolls nor fails is given up and made again: one in about ten tries of
        // the Snapcast test left the pipeline waiting for good after snapserver came back.
        setRecoveryTimer(EventLoop.main.schedule(after: Self.attemptTimeout) { [weak self] in
            self?.apply(.outputLost("no answer from the sound output in \(Int(Self.attemptTimeout)) s"))
        })
    }

    private func setRecoveryTimer(_ timer: LoopSource) {
        guard case .recovering(var recovery) = state.phase else { return }
        recovery.timer = timer
        state.phase = .recovering(recovery)
    }

    // MARK: A stuck pipeline (PipelineReplacement.swift)

    /// The pipeline got stuck in a change the loop asked for while an item was loaded: that item starts
    /// again in a new pipeline, at the newest position known, playing if the user last asked for that.
    private func restartInNewPipeline(stuckIn what: String) {
        adoptIncoming()
        let item = state.loaded.current ?? streaming.pending
        var start = state.phase.resumption(at: state.lastPosition)
        replaceStuckPipeline(stuckIn: what)
        guard let item, let pipeline, pipeline.replacementsInARow <= Self.replacementsPerItem else { return giveUp(item) }
        streaming.restart(item)
        start.applyRate = rate != 1
        start.restartsCurrent = item == state.loaded.current
        if case .recovering(var recovery) = state.phase {
            recovery.resume = start
            recovery.attempting = true
            state.phase = .recovering(recovery)
        } else {
            state.phase = .loading(start)
        }
        state.lastPosition = start.position
        startPlaybin(state.loaded.playbinURI ?? item.uri)
    }

    /// Pipelines keep getting stuck on `item`: it fails, told on the loop's next turn (this runs inside
    /// whatever command found the pipeline stuck).
    private func giveUp(_ item: EngineItem?) {
        teardown()
        streaming.reset(loading: nil)
        guard let item else { return }
        let failure = EngineError(.other, "\(item.uri): GStreamer stopped answering while playing it")
        EventLoop.main.post { [weak self] in self?.emit(.failed(item.id, failure)) }
    }

    // MARK: Crossfade (Crossfading.swift decides)

    private func changeCrossfade(to seconds: Double) {
        state.crossfadeSeconds = min(max(seconds, 0), 12)
        guard state.crossfadeSeconds == 0 else {
            if crossfadeTimer == nil {
                crossfadeTimer = EventLoop.main.schedule(after: Self.crossfadeTick, repeating: true) { [weak self] in
                    self?.apply(.crossfadeTick)
                }
            }
            return
        }
        crossfadeTimer = nil
        if state.loaded.crossfade?.reported == false { endCrossfade() }
    }

    private func armCrossfade() {
        guard let plan = crossfadePlan(seconds: state.crossfadeSeconds), state.loaded.crossfadeRefused != plan.incoming.id,
              let joint = pipeline?.crossfadeJoint else { return }
        let levelling = configuration.replayGain.incomingVolumeElement(albumGain: plan.incoming.sharesAlbumWithNeighbour)
        guard let track = joint.arm(incoming: plan.incoming.uri, levelling: levelling, equalizer: state.equalizer,
                                    seconds: plan.seconds, outgoingLength: plan.outgoingLength, started: overlapStartedReport()) else {
            state.loaded.crossfadeRefused = plan.incoming.id
            return Self.log.info("no crossfade into \(plan.incoming.uri): the stream is in a format the mix does not take")
        }
        state.loaded.crossfade = Crossfade(incoming: plan.incoming, track: track,
                                           start: .seconds(plan.outgoingLength - plan.seconds), length: .seconds(plan.seconds))
    }

    /// The first mixed buffer passed the joint: the core is told once the output plays it.
    private func overlapStarted(_ id: ObjectIdentifier) {
        guard var crossfade = state.loaded.crossfade, ObjectIdentifier(crossfade.track) == id, !crossfade.reported else { return }
        let ahead = livePosition().map { (crossfade.start - $0).inSeconds } ?? 0
        crossfade.heardTimer = EventLoop.main.schedule(after: min(max(ahead, 0), 2)) { [weak self] in
            self?.apply(.overlapHeard(id))
        }
        state.loaded.crossfade = crossfade
    }

    private func overlapHeard(_ id: ObjectIdentifier) {
        guard var crossfade = state.loaded.crossfade, ObjectIdentifier(crossfade.track) == id, !crossfade.reported else { return }
        crossfade.reported = true
        crossfade.heardTimer = nil
        state.loaded.crossfade = crossfade
        emit(.trackStarted(crossfade.incoming.id))
    }

    /// Nothing is mixed any more; the incoming pipeline stops off the loop.
    @discardableResult
    private func endCrossfade() -> Crossfade? {
        guard let crossfade = state.loaded.crossfade else { return nil }
        state.loaded.crossfade = nil
        if let (mixed, missed) = pipeline?.crossfadeJoint?.figures {
            Self.log.debug("crossfade into \(crossfade.incoming.uri) over: \(mixed) frames mixed, \(missed) with no incoming sample ready")
        }
        _ = pipeline?.crossfadeJoint?.end()
        crossfade.track.stopLater()
        return crossfade
    }

    /// The overlap ends early (a seek, a pause, a rate change): the incoming track, the core's current one since
    /// the overlap's start, is loaded at `position` and goes on alone.
    private func continueIncoming(_ crossfade: Crossfade, at position: Duration, playing: Bool, reportSeek: Bool = false) {
        loadItem(crossfade.incoming, at: position, playing: playing)
        guard case .loading(var start) = state.phase else { return }
        start.reportSeek = reportSeek
        start.restartsCurrent = true
        start.applyRate = rate != 1
        state.phase = .loading(start)
        state.loaded.current = crossfade.incoming
        state.lastPosition = position
        if case .some(let next)? = crossfade.preparedMeanwhile { prepareHandover(next) }
    }

    /// The outgoing track ended and playbin did not take the incoming one (its file changed meanwhile): it is
    /// loaded where the overlap ended.
    private func outgoingEndedInOverlap() {
        guard let crossfade = state.loaded.crossfade else { return }
        continueIncoming(crossfade, at: crossfade.length, playing: state.wantsPlaying)
    }

    /// The pipeline goes down on its own account during an overlap (a lost output, a stuck playbin): the incoming
    /// track, the core's current one, becomes the loaded item where it is heard, for the restart that follows.
    /// False (and an armed overlap ended) when no overlap was heard yet.
    @discardableResult
    private func adoptIncoming() -> Bool {
        guard let crossfade = state.loaded.crossfade, crossfade.reported else {
            endCrossfade()
            return false
        }
        let heard = heardPosition(of: crossfade)
        endCrossfade()
        closeRemoteFile()
        streaming.prepare(nil, remote: nil)  // playbin must not be handed it again
        state.loaded.current = crossfade.incoming
        state.loaded.playbinURI = crossfade.incoming.uri
        state.loaded.liveStream = false
        state.loaded.checkedRead = nil
        state.phase = .prerolled(Seeks())
        state.lastPosition = heard
        if case .some(let next)? = crossfade.preparedMeanwhile { prepareHandover(next) }
        return true
    }

    private func heardPosition(of crossfade: Crossfade) -> Duration {
        livePosition().map(crossfade.heardPosition) ?? state.lastPosition ?? .zero
    }
}
