// PlayerCore's AudioEngine on GStreamer's playbin.
//
//   commands (loop thread) ──▶ playbin ──▶ [scaletempo] ──▶ configured sink ("pulsesink" by default)
//                                │ about-to-finish (streaming thread): takes the prepared item from Handover;
//                                │ the switch to it runs on until `drained` ends (GroupSwitch)
//                                ▼
//                              bus ── watch (loop thread) ──▶ BusHandling ──▶ AudioEngineEvent ──▶ delegate
//
// Invariants: every state change is asked for and never waited for (ASYNC_DONE says when it is done), and
// runs off the loop with a bounded wait: a playbin that deadlocks is replaced and what was loaded goes on
// in the new one (Pipeline, PipelineReplacement.swift); streaming threads only touch `Handover`; events
// reach the delegate on the loop thread only.
// Commands are serialised on the loop thread: at most one seek is in flight in playbin; seeks and rate
// changes asked for meanwhile wait as one merged request (the newest target and rate win) and go out at
// its ASYNC_DONE (Seeking.swift); a load or stop first takes the pipeline to NULL, cancelling all of it.
// Every way down to NULL goes through `stopPipeline`, which keeps it apart from a switch to the next item
// (GroupSwitch) and renews the tempo filter.
//
// The engine layer: may import PlayerCore, GStreamer, EventLoop, RemoteMedia, PublicText, swift-log and
// the standard libraries (Foundation, Glibc, Synchronization); no C module.
import EventLoop
import GStreamer
import Logging
import PlayerCore

public final class GStreamerEngine: AudioEngine {
    public struct Configuration: Sendable {
        /// A sink element or pipeline fragment (`gst-launch` syntax). `pulsesink` fails loudly when no
        /// sound server runs, unlike `autoaudiosink`, which silently plays into a fake sink.
        public var sink: String
        /// Shown by the sound server's mixer (pulsesink `stream-properties`).
        public var applicationName: String
        public var iconName: String
        /// Cache, retries and timeouts for http(s) items.
        public var network: NetworkOptions
        public var replayGain: ReplayGain

        public init(sink: String = "pulsesink", applicationName: String = "Quaver", iconName: String = "quaver",
                    network: NetworkOptions = NetworkOptions(), replayGain: ReplayGain = ReplayGain()) {
            self.sink = sink
            self.applicationName = applicationName
            self.iconName = iconName
            self.network = network
            self.replayGain = replayGain
        }
    }

    public weak var delegate: AudioEngineDelegate?

    /// The playbin playing, with its output and filter; replaced when GStreamer deadlocks inside it.
    var pipeline: Pipeline
    var playbin: Element { pipeline.playbin }
    var output: Element { pipeline.output }
    let configuration: Configuration
    let handover = Handover()
    let nextItemCheck = NextItemCheck(timeout: .seconds(5))
    var network: NetworkOptions { configuration.network }
    /// The remote file the current `appsrc://` serves, shared with `source-setup`.
    let remoteSlot = LockedValue<RemoteFile?>(nil)

    // Loop-thread state.
    /// The item whose stream has started, until stop/load/failure.
    var current: EngineItem?
    /// Set by `load` until the first ASYNC_DONE: where to start and whether to play then.
    var preroll: Preroll?
    /// The seek playbin is carrying out, until its ASYNC_DONE.
    var seekInFlight: SeekRequest?
    /// The newest seek asked for while one was in flight: sent at that one's ASYNC_DONE.
    var queuedSeek: SeekRequest?
    var wantsPlaying = false
    /// The playback rate, shared with each pipeline's rate probe, which gives it to every new stream's segment.
    let wantedRate = LockedValue(1.0)
    var rate: Double { wantedRate.withLock { $0 } }
    /// The volume asked for, given again to a new pipeline.
    var volume = 1.0
    /// Pipelines given up in a row without a preroll between them (PipelineReplacement.swift).
    var replacementsInARow = 0
    /// The loaded item starts again in a new pipeline: its STREAM_START is not a new track.
    var restarting = false
    var lastPosition: Duration?
    var sentTags = TrackTags()
    var sentDuration: Duration?
    var sentSeekable: Bool?
    var pluginMissing: String?
    /// Whether the output has accepted a stream since the last load: a later output error is a lost
    /// sound server (recovered), an earlier one means there is none (reported as a failure).
    var outputWorked = false
    var recovery: LoopSource?
    /// Where to resume after the sound server comes back; a seek while waiting moves it.
    var recoveryPosition: Duration = .zero
    var reportSeekAfterRecovery = false
    /// The cached remote file of the item playing (or loading).
    var remote: (file: RemoteFile, item: EngineItem)?
    /// What playbin was given for the loaded item: its URI, or `appsrc://` for a cached remote file.
    var playbinURI: String?
    /// The loaded item is a live stream (radio): no length, not seekable, "Artist - Title" titles.
    var liveStream = false

    /// Builds playbin for audio only with `configuration.sink` as its output. Throws if GStreamer lacks
    /// playbin or the sink description does not parse; calls `gst_init` if nobody did.
    public init(configuration: Configuration = Configuration()) throws {
        GStreamer.initialize()
        self.configuration = configuration
        pipeline = try Pipeline(configuration, handover: handover, nextItemCheck: nextItemCheck,
                                remoteSlot: remoteSlot, wantedRate: wantedRate)
        pipeline.watchBus { [weak self] message in self?.handle(message) }
    }

    deinit {
        pipeline.disconnect()
        _ = pipeline.goToNull(switchTimeout: Self.switchTimeout, limit: Self.stateChangeLimit)
        remote?.file.close()
        handover.reset(loading: nil)
    }

    /// MIME types the installed GStreamer can decode: sink caps of audio decoders and of demuxers.
    public static func supportedMimeTypes() -> [String] {
        // A klass is words joined by "/" ("Codec/Decoder/Audio"): compared word by word. A substring
        // search (Foundation's, or the standard library's generic firstRange) took most of the call's time.
        Registry.sinkMediaTypes { klass in
            let words = klass.split(separator: "/")
            return words.contains("Demuxer") || (words.contains("Decoder") && words.contains("Audio"))
        }.filter { !$0.hasSuffix("/x-raw") }
    }

    // MARK: AudioEngine

    /// Loading forgets a prepared next item: call `prepareNext` after `load`.
    public func load(_ item: EngineItem, at position: Duration, playing: Bool) {
        teardown()
        handover.reset(loading: item)
        wantsPlaying = playing
        preroll = Preroll(position: position, playing: playing)
        begin(item)
    }

    /// The same entry prepared again with new facts keeps its download going.
    public func prepareNext(_ item: EngineItem?) {
        if let item, handover.refresh(item) { return }
        handover.prepare(item, remote: prepareRemote(for: item))
        if let item, item.isLocalFile {
            let handover = handover
            let groupSwitch = pipeline.groupSwitch
            nextItemCheck.check(item, passed: { handover.checked($0, file: $1) }, ended: { groupSwitch.nudge() })
        }
        startPrefetchIfIdle()
    }

    /// While an item handed to playbin has not started, the album mode is its own (set at its start).
    public func update(_ item: EngineItem) {
        _ = handover.refresh(item)
        if current?.id == item.id { current = item }
        let heardNext = handover.pending.map { $0.id == item.id } ?? (current?.id == item.id)
        if heardNext { pipeline.albumMode?.set(albumGain: item.sharesAlbumWithNeighbour) }
    }

    public func play() {
        wantsPlaying = true
        preroll?.playing = true
        if preroll == nil, current != nil, recovery == nil { changeState(to: .playing) }
    }

    /// While loading, a playbin already asked for PLAYING (`startPlaybin`) is asked for PAUSED too: the
    /// core pauses on the first BUFFERING below 100 %, and a pipeline left going to PLAYING drains
    /// queue2 into decodebin as fast as it fills, so 100 % never came (measured on 12 KB/s).
    /// Upstream: no issue found; not retested after GStreamer 1.22.
    public func pause() {
        wantsPlaying = false
        preroll?.playing = false
        let started = preroll == nil ? current != nil : playbinURI != nil
        if started, recovery == nil { changeState(to: .paused) }
    }

    public func stop() {
        teardown()
        handover.reset(loading: nil)
        wantsPlaying = false
    }

    public func seek(to position: Duration, exact: Bool) {
        if preroll != nil {
            preroll?.position = position
            preroll?.reportSeek = true
        } else if recovery != nil {
            recoveryPosition = position
            reportSeekAfterRecovery = true
        } else if current != nil {
            requestSeek(SeekRequest(target: position, exact: exact, report: true))
        }
    }

    /// A new rate reaches the sound through a flushing seek to where we are (at the newest target, if
    /// a seek waits). While loading, the segment may already have gone by: the first seek applies it.
    public func setRate(_ rate: Double) {
        let clamped = min(2, max(0.5, rate))
        guard clamped != self.rate else { return }
        wantedRate.withLock { $0 = clamped }
        if preroll != nil {
            preroll?.applyRate = true
        } else if current != nil, recovery == nil {
            let target = queuedSeek?.target ?? seekInFlight?.target ?? position ?? .zero
            requestSeek(SeekRequest(target: target, exact: true, report: false))
        }
    }

    public func setVolume(_ volume: Double) {
        let volume = min(1, max(0, volume))
        self.volume = volume
        bounded("a volume change") { $0.set("volume", volume) }
    }

    public var position: Duration? {
        guard current != nil || preroll != nil else { return nil }
        if preroll == nil, seekInFlight == nil, recovery == nil, let live = livePosition() { lastPosition = live }
        return lastPosition
    }

    /// Where the output is in the stream now, asked of the output itself, on the loop.
    ///
    /// playbin's own answer is the largest of its sinks' answers, and the output is the only sink that gets
    /// data. Asking playbin costs a walk through its bins (a tenth of a GetAll's work, measured with callgrind)
    /// and takes playbin's lock, which a switch to the next item holds: that query has to go through the
    /// pipeline's thread (`query`), at about 20 µs a time. A sink answers under its own object lock, from its
    /// segment and clock, and asks upstream through its pad only before its first buffer, a query passed on
    /// at once, not behind data: none of that waits for the switch (docs/platform.md). An output that cannot answer (before its first segment)
    /// leaves it to playbin.
    /// Upstream: by design (`gst_play_bin_query` takes the lock on purpose: no queries during a group switch);
    /// unchanged as of GStreamer 1.29.2 (main, 2026-08), so this stays while playbin2 plays.
    func livePosition() -> Duration? {
        if !pipeline.isStuck, let answer = pipeline.output.queryPosition() { return answer }
        return query { $0.queryPosition() }
    }

    // MARK: Internals shared with bus handling

    /// Back to NULL (synchronous going down) and drop the old stream's queued messages, so nothing
    /// of it is mistaken for the next item's. READY is not enough: after a type-finding error playbin
    /// in READY fails the next URI too ("Could not determine type of stream", measured).
    /// Upstream: no issue found; not retested after GStreamer 1.22.
    func teardown() {
        stopPipeline()
        closeRemoteFile()
        playbinURI = nil
        liveStream = false
        recovery = nil
        current = nil
        preroll = nil
        seekInFlight = nil
        queuedSeek = nil
        lastPosition = nil
        pluginMissing = nil
        outputWorked = false
        restarting = false
        forgetStreamInfo()
    }

    /// Every way down to NULL goes through here: the bus forgets the old stream's messages, and the
    /// tempo filter is renewed before the pipeline goes up again.
    func stopPipeline() {
        goToNull()
        playbin.bus.dropPending()
        pipeline.audioFilter?.renew()
    }

    /// NULL, never while playbin switches to the next item (GroupSwitch says why). A playbin that does not
    /// get there is replaced by a new one, which is at NULL.
    private func goToNull() {
        let (switchEnded, reached) = pipeline.goToNull(switchTimeout: Self.switchTimeout, limit: Self.stateChangeLimit)
        if !switchEnded {
            Self.log.warning("playbin's switch to the next item had not ended after \(Self.switchTimeout) s; stopped it all the same")
        }
        if !reached { replaceStuckPipeline(stuckIn: "going to NULL") }
    }

    static let switchTimeout = 2.0

    func forgetStreamInfo() {
        sentTags = TrackTags()
        sentDuration = nil
        sentSeekable = nil
    }

    func emit(_ event: AudioEngineEvent) {
        delegate?.engine(self, didEmit: event)
    }
}
