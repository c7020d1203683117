// PlayerCore's AudioEngine on GStreamer's playbin.
//
//   commands (loop thread) ──▶ playbin ──▶ [scaletempo] ──▶ configured sink ("pulsesink" by default)
//                                │ about-to-finish (streaming thread): takes the prepared item from Handover;
//                                │ the switch to it runs on until `drained` ends (GroupSwitch)
//                                ▼
//                              bus ── watch (loop thread) ──▶ BusHandling ──▶ AudioEngineEvent ──▶ delegate
//
// Invariants: every state change is asked for and never waited for (ASYNC_DONE says when it is done);
// streaming threads only touch `Handover`; events reach the delegate on the loop thread only.
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

    let playbin: Element
    let output: Element
    let handover = Handover()
    let groupSwitch = GroupSwitch()
    let nextItemCheck = NextItemCheck(timeout: .seconds(5))
    private var busWatch: BusWatch?
    private var aboutToFinish: SignalConnection?
    private var decoderAdded: SignalConnection?
    private var sourceSetup: SignalConnection?
    private var networkElementAdded: SignalConnection?
    let network: NetworkOptions
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
    /// The playback rate, shared with `rateProbe`, which gives it to every new stream's segment.
    let wantedRate = LockedValue(1.0)
    var rate: Double { wantedRate.withLock { $0 } }
    private var rateProbe: SegmentRateProbe?
    /// ReplayGain "auto": the `rgvolume` whose album mode follows each item, and the probe that switches it.
    private var albumMode: AlbumModeSwitch?
    private var albumModeProbe: StreamStartProbe?
    /// Makes each stream's ReplayGain tags whole for `rgvolume` (ReplayGainTags), when ReplayGain is on.
    private var replayGainTagsProbe: StreamTagsProbe?
    /// scaletempo (keeps the pitch at rates ≠ 1) and the ReplayGain elements, when there are any.
    private var audioFilter: FilterSlot?
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

    /// Builds playbin for audio only with `configuration.sink` as its output. Throws if GStreamer
    /// lacks playbin or the sink description does not parse; calls `gst_init` if nobody did.
    public init(configuration: Configuration = Configuration()) throws {
        GStreamer.initialize()
        network = configuration.network
        playbin = try Element.make("playbin")
        output = try Element.parse(configuration.sink)
        playbin.set("flags", "audio+soft-volume")
        describeStream(configuration)
        sizeBuffers(configuration)
        playbin.set("audio-sink", output)
        // Without the video flag playbin still builds autovideosink for a file that has only video
        // (a PNG); probing the video sinks loads DirectFB, whose thread crashed the process (measured).
        playbin.set("video-sink", try Element.make("fakesink"))
        // scaletempo keeps the pitch at rates ≠ 1 and leaves samples untouched at 1.0 (measured
        // bit-exact through playbin: the gapless test relies on it). Without the plugin, rate shifts pitch.
        // The filter (with the ReplayGain elements when asked for) sits in a FilterSlot, renewed at every NULL
        // (see FilterSlot for the scaletempo bug).
        let replayGain = configuration.replayGain
        let albumMode = replayGain.mode == .auto ? AlbumModeSwitch() : nil
        audioFilter = try FilterSlot(name: "audio-filter") {
            let filter = try replayGain.audioFilter(withScaletempo: try? Element.make("scaletempo"))
            albumMode?.use(filter)
            return filter
        }
        if let audioFilter { playbin.set("audio-filter", audioFilter.bin) }
        let wantedRate = wantedRate
        rateProbe = SegmentRateProbe(element: audioFilter?.bin ?? output) { wantedRate.withLock { $0 } }
        let handover = handover
        if replayGain.mode != .off, let audioFilter {
            let tags = LockedValue(ReplayGainTags())
            replayGainTagsProbe = StreamTagsProbe(element: audioFilter.bin, names: ReplayGainTags.names,
                streamStarted: { tags.withLock { $0.reset() }; return ReplayGainTags.neutral },
                tagsArrived: { found in tags.withLock { $0.adding(found) } })
        }
        if let albumMode, let audioFilter {
            self.albumMode = albumMode
            // The item whose stream starts is the oldest handed to playbin: the loop takes it off the list
            // only at the bus's STREAM_START, which follows this one.
            albumModeProbe = StreamStartProbe(element: audioFilter.bin) {
                albumMode.set(albumGain: handover.pending?.sharesAlbumWithNeighbour ?? false)
            }
        }
        let playbin = playbin
        let slot = remoteSlot
        let groupSwitch = groupSwitch
        let nextItemCheck = nextItemCheck
        aboutToFinish = playbin.connect("about-to-finish") {
            // Nothing is handed over while the loop takes playbin to NULL (GroupSwitch says why).
            guard groupSwitch.begin() else { return }
            // A check under way is waited for briefly: a state change the loop asks for meanwhile waits for
            // this thread (only NULL ends the wait at once).
            if handover.preparedAwaitsCheck {
                guard groupSwitch.wait(atMost: 0.5, until: { !nextItemCheck.isChecking || !handover.preparedAwaitsCheck })
                else { return }
            }
            guard let next = handover.takeNext() else { return }
            if let file = next.remote { slot.withLock { $0 = file } }
            playbin.set("uri", next.remote == nil ? next.item.uri : "appsrc://")
        }
        // Each item's decoder (a uridecodebin, added again for every item) says when a switch has ended.
        decoderAdded = playbin.connect("element-added") { element in
            guard element.factoryName == "uridecodebin" else { return }
            element.connectAfterOthersOnce("drained", key: "quaver-switch-ended") { groupSwitch.ended() }
        }
        let network = network
        sourceSetup = playbin.connect("source-setup") { source in
            Self.setUpSource(source, slot: slot, network: network)
        }
        networkElementAdded = network.proxy.map { proxy in playbin.connectDeepElementAdded { Self.setProxy(proxy, on: $0) } }
        busWatch = playbin.bus.watch { [weak self] message in self?.handle(message) }
    }

    deinit {
        aboutToFinish?.cancel()
        goToNull()
        remote?.file.close()
        handover.reset(loading: nil)
    }

    /// A music daemon needs no low-latency output: 1 s of buffer written in 100 ms segments wakes the
    /// sink and the sound server a tenth as often as GStreamer's 200 ms / 10 ms default (audio base sinks:
    /// pulsesink, alsasink). Values written in the sink description win. Pause, seek and volume do not
    /// wait for the buffer (cork, flush, stream volume).
    private func sizeBuffers(_ configuration: Configuration) {
        guard output.hasProperty("buffer-time"), output.hasProperty("latency-time"),
              !configuration.sink.contains("buffer-time"), !configuration.sink.contains("latency-time") else { return }
        output.set("buffer-time", "1000000")
        output.set("latency-time", "100000")
    }

    /// media.role=music lets the sound server apply its music policies (corking, per-role volume).
    private func describeStream(_ configuration: Configuration) {
        guard output.hasProperty("stream-properties") else { return }
        let name = configuration.applicationName.filter { $0 != "\"" }
        output.set("stream-properties", "props,media.role=music,application.name=\"\(name)\","
                   + "application.icon_name=\(configuration.iconName)")
        if output.hasProperty("client-name") { output.set("client-name", name) }
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
            let groupSwitch = groupSwitch
            nextItemCheck.check(item, passed: { handover.checked($0) }, ended: { groupSwitch.nudge() })
        }
        startPrefetchIfIdle()
    }

    /// While an item handed to playbin has not started, the album mode is its own (set at its start).
    public func update(_ item: EngineItem) {
        _ = handover.refresh(item)
        if current?.id == item.id { current = item }
        let heardNext = handover.pending.map { $0.id == item.id } ?? (current?.id == item.id)
        if heardNext { albumMode?.set(albumGain: item.sharesAlbumWithNeighbour) }
    }

    public func play() {
        wantsPlaying = true
        preroll?.playing = true
        if preroll == nil, current != nil, recovery == nil { playbin.setState(.playing) }
    }

    /// While loading, a playbin already asked for PLAYING (`startPlaybin`) is asked for PAUSED too: the
    /// core pauses on the first BUFFERING below 100 %, and a pipeline left going to PLAYING drains
    /// queue2 into decodebin as fast as it fills, so 100 % never came (measured on 12 KB/s).
    public func pause() {
        wantsPlaying = false
        preroll?.playing = false
        let started = preroll == nil ? current != nil : playbinURI != nil
        if started, recovery == nil { playbin.setState(.paused) }
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
        playbin.set("volume", min(1, max(0, volume)))
    }

    public var position: Duration? {
        guard current != nil || preroll != nil else { return nil }
        if preroll == nil, seekInFlight == nil, recovery == nil, let live = playbin.queryPosition() { lastPosition = live }
        return lastPosition
    }

    // MARK: Internals shared with bus handling

    /// Back to NULL (synchronous going down) and drop the old stream's queued messages, so nothing
    /// of it is mistaken for the next item's. READY is not enough: after a type-finding error playbin
    /// in READY fails the next URI too ("Could not determine type of stream", measured).
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
        forgetStreamInfo()
    }

    /// Every way down to NULL goes through here: the bus forgets the old stream's messages, and the
    /// tempo filter is renewed before the pipeline goes up again.
    func stopPipeline() {
        goToNull()
        playbin.bus.dropPending()
        audioFilter?.renew()
    }

    /// NULL, never while playbin switches to the next item (GroupSwitch says why).
    private func goToNull() {
        let playbin = playbin
        if !groupSwitch.exclusively(timeout: Self.switchTimeout, { playbin.setState(.null) }) {
            Self.log.warning("playbin's switch to the next item had not ended after \(Self.switchTimeout) s; stopped it all the same")
        }
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
