import Dispatch
import GStreamer

/// One playbin with everything made for it: its output, its audio filter, the probes on them and the handlers
/// connected to it. The engine plays through one; when GStreamer deadlocks inside it, the engine gives it up
/// and builds another (`GStreamerEngine.replaceStuckPipeline`). Its handlers and probes reach the engine only
/// through `StreamingSide`, naming this pipeline's generation.
///
/// Why a pipeline can be given up: playbin (GStreamer 1.22) still deadlocks now and then while it switches to
/// the next item on a streaming thread, and a state change the loop asks for meanwhile then never returns
/// (docs/platform.md, "GStreamer behaviour"). So every call the loop makes on playbin that could wait on its
/// locks (state changes, seeks, queries, the volume) runs on the pipeline's own thread, and the loop waits for
/// it a bounded time (`within`). One that has not returned by then leaves the pipeline
/// stuck for good: its handlers and bus watch are cut at once, so nothing of it reaches the engine again, and
/// it is kept alive by the call still running on its thread. Should that call ever return, the same thread
/// takes the pipeline to NULL and lets it go; one that never returns costs that thread and the pipeline's
/// memory, never the loop.
/// Upstream: no issue found for these deadlocks, and playbin2's switch is unchanged as of GStreamer 1.29.2 (main,
/// 2026-08): not fixed upstream (docs/platform.md, "Workarounds", for what later playsink changes may touch).
final class Pipeline {
    let playbin: Element
    let output: Element
    /// scaletempo (keeps the pitch at rates ≠ 1), the ReplayGain elements and the equaliser, when there are any.
    let audioFilter: FilterSlot?
    /// ReplayGain "auto": the `rgvolume` whose album mode follows each item is in use.
    let switchesAlbumMode: Bool
    /// The equaliser's elements in the filter, given its gains again whenever the filter is renewed (loop thread).
    let equalizer = EqualizerStage()
    /// Where a crossfade mixes: after the filter, in front of the output (the rate probe's place when there is
    /// no filter).
    let crossfadeJoint: CrossfadeJoint?
    /// This pipeline's generation in `StreamingSide`: its switch, `rgvolume` and tags.
    let generation: Int
    /// Pipelines given up in a row, this one's predecessors, without a preroll between them (loop thread).
    var replacementsInARow = 0
    /// Whether a call outlived its wait: the pipeline is given up (loop thread).
    private(set) var isStuck = false
    private let streaming: StreamingSide
    private var connections: [SignalConnection] = []
    private var probes: [AnyObject] = []
    private var busWatch: BusWatch?
    /// Runs the loop's calls on playbin, one at a time, in the order the loop made them.
    private let worker = DispatchQueue(label: "quaver.pipeline-state")
    /// The output's own `device` (the sink description's, or nil), while a new stream is sent to another one.
    private var displacedDevice: String??

    /// Builds playbin for audio only with `sink` (a description) as its output. Throws if GStreamer lacks
    /// playbin or the sink description does not parse.
    init(_ configuration: GStreamerEngine.Configuration, sink: String, streaming: StreamingSide) throws {
        playbin = try Element.make("playbin")
        output = try Element.parse(sink)
        self.streaming = streaming
        let generation = streaming.newPipeline()
        self.generation = generation
        playbin.set("flags", "audio+soft-volume")
        Self.describeStream(output, configuration)
        Self.sizeBuffers(output, description: sink)
        playbin.set("audio-sink", output)
        // Without the video flag playbin still builds autovideosink for a file that has only video
        // (a PNG); probing the video sinks loads DirectFB, whose thread crashed the process (measured).
        // Upstream: no issue found; not retested after 1.22 (dfbvideosink still ships in GStreamer 1.29.2).
        playbin.set("video-sink", try Element.make("fakesink"))
        let replayGain = configuration.replayGain
        switchesAlbumMode = replayGain.mode == .auto
        audioFilter = try Self.filterSlot(replayGain, equalizer: equalizer, streaming: streaming, generation: generation)
        if let audioFilter { playbin.set("audio-filter", audioFilter.bin) }
        crossfadeJoint = CrossfadeJoint(element: audioFilter?.bin ?? output, padName: audioFilter == nil ? "sink" : "src",
                                        streaming: streaming, generation: generation)
        addProbes(replayGain)
        connectHandlers(network: configuration.network)
    }

    /// scaletempo keeps the pitch at rates ≠ 1 and leaves samples untouched at 1.0 (measured bit-exact through
    /// playbin: the gapless test relies on it). Without the plugin, rate shifts pitch. The filter (with the
    /// ReplayGain elements when asked for, and the equaliser) sits in a FilterSlot, renewed at every NULL (see
    /// FilterSlot for the scaletempo bug); in "auto" each new filter's `rgvolume` is the one whose album mode is
    /// switched, and each new filter's equaliser gets the gains last set.
    private static func filterSlot(_ replayGain: ReplayGain, equalizer: EqualizerStage, streaming: StreamingSide,
                                   generation: Int) throws -> FilterSlot? {
        try FilterSlot(name: "audio-filter") {
            let filter = try replayGain.audioFilter(withScaletempo: try? Element.make("scaletempo"),
                                                    equalizer: EqualizerStage.fragment)
            if replayGain.mode == .auto { streaming.useAlbumVolume(in: filter, generation: generation) }
            equalizer.use(filter)
            return filter
        }
    }

    /// The rate probe gives every new stream's segment the rate asked for; ReplayGain's make each stream's
    /// tags whole for `rgvolume` (ReplayGainTags) and, in "auto", switch its album mode as the stream starts.
    private func addProbes(_ replayGain: ReplayGain) {
        let streaming = streaming, generation = generation
        if let probe = SegmentRateProbe(element: audioFilter?.bin ?? output, rate: { streaming.rate }) {
            probes.append(probe)
        }
        guard replayGain.mode != .off, let audioFilter else { return }
        if let probe = StreamTagsProbe(element: audioFilter.bin, names: ReplayGainTags.names,
            streamStarted: { streaming.replayGainStreamStarted(generation: generation) },
            tagsArrived: { streaming.replayGainTagsArrived($0, generation: generation) }) {
            probes.append(probe)
        }
        if switchesAlbumMode, let probe = StreamStartProbe(element: audioFilter.bin, started: {
            streaming.albumModeAtStreamStart(generation: generation)
        }) {
            probes.append(probe)
        }
    }

    private func connectHandlers(network: GStreamerEngine.NetworkOptions) {
        let playbin = playbin, streaming = streaming, generation = generation
        connections.append(playbin.connect("about-to-finish") {
            // Nothing is handed over while the loop takes playbin to NULL (GroupSwitch says why).
            guard streaming.beginSwitch(generation) else { return }
            // A check under way is waited for briefly, and not at all while the loop has a seek pending
            // (which would wait for this thread): an unchecked file is then not taken.
            if streaming.preparedAwaitsCheck {
                guard streaming.waitForNextFilesCheck(generation, atMost: 0.5) else { return }
            }
            guard let next = streaming.takeNext() else { return }
            playbin.set("uri", next.remote == nil ? next.item.uri : "appsrc://")
        })
        // Each item's decoder (a uridecodebin, added again for every item) says when a switch has ended, and
        // fails an item with no audio stream, which would otherwise stand still (`failsWithoutAudioStream`).
        connections.append(playbin.connect("element-added") { element in
            guard element.factoryName == "uridecodebin" else { return }
            element.connectAfterOthersOnce("drained", key: "quaver-switch-ended") { streaming.switchEnded(generation) }
            element.failsWithoutAudioStream()
        })
        // Each decoder's output gathered into buffers of 100 ms (GstAudioDecoder's `min-latency`), the output's
        // segment: every buffer pays for some 22 pads and the filter's passthrough elements on its way, and an
        // MP3 decoder pushed each 26 ms frame, which put quaverd's CPU playing MP3 at bare playbin's and over
        // (now a tenth under). What a decoder holds is pushed at the stream's end, so joints stay gapless.
        connections.append(playbin.connectDeepElementAdded { element in
            if element.isAudioDecoder { element.set("min-latency", String(Self.outputSegmentMicroseconds * 1000)) }
        })
        connections.append(playbin.connect("source-setup") { source in
            GStreamerEngine.setUpSource(source, serving: streaming.servedFile, network: network)
        })
        // Every network source inside playbin: its own, and those hlsdemux makes for each fragment, which
        // `source-setup` never sees.
        if let proxy = SourceProxy.forSources(configured: network.proxy) {
            connections.append(playbin.connectDeepElementAdded { proxy.apply(to: $0) })
        }
    }

    /// Loop thread: `handler` gets every message of this playbin's bus, until the pipeline is given up.
    func watchBus(_ handler: @escaping (Message) -> Void) {
        busWatch = playbin.bus.watch(handler)
    }

    /// Loop thread: the output's streams connect to the sound server's sink `device` (pulsesink's `device`)
    /// until the item is done with (`connectStreamsAsConfigured`): the output may make its stream again while
    /// the item plays (PipeWire's pulse layer did), and one made without it went where the server had last put
    /// music, not to `device`. An output without that property is left as it is.
    func connectNewStream(to device: String?) {
        guard let device, output.hasProperty("device") else { return }
        if displacedDevice == nil { displacedDevice = .some(output.string("device")) }
        output.set("device", string: device)
    }

    /// Loop thread, when the item is done with (a load, a stop): the output's own `device` again, so the next
    /// item's stream goes where the description or the server says.
    func connectStreamsAsConfigured() {
        guard let displaced = displacedDevice else { return }
        output.set("device", string: displaced)
        displacedDevice = nil
    }

    /// Loop thread: nothing of this pipeline reaches the engine any more (signals and bus messages).
    func disconnect() {
        connections.forEach { $0.cancel() }
        busWatch?.cancel()
    }

    /// Loop thread: runs `call` (a state change or a seek) on the pipeline's own thread and waits for it `limit`
    /// seconds at most. `nil` when it has not returned by then, or the pipeline was stuck already: from then on
    /// the pipeline is given up (disconnected, and no call is sent to it again).
    func within<T>(_ limit: Double, _ call: @escaping (Element) -> T) -> T? {
        guard !isStuck else { return nil }
        // The work holds the pipeline while the call runs: one stuck in it is never freed.
        let answer = BoundedCall.run(on: worker, waitingAtMost: .seconds(limit), { [self] in call(playbin) },
                                     late: { [self] _ in playbin.setState(.null) })  // back after all: let it go from NULL
        if answer == nil {
            isStuck = true
            disconnect()
        }
        return answer
    }

    /// NULL, never while playbin switches to the next item (GroupSwitch says why): waits `switchTimeout` for
    /// a switch under way to end (and goes to NULL all the same), then `limit` for NULL (`within`).
    func goToNull(switchTimeout: Double, limit: Double) -> (switchEnded: Bool, reached: Bool) {
        var reached = false
        let switchEnded = streaming.exclusively(generation, timeout: switchTimeout) {
            reached = within(limit) { $0.setState(.null) } != nil
        }
        return (switchEnded, reached)
    }

    /// Loop thread, before a seek goes to the pipeline's thread: a switch waiting for the next file's check
    /// stops waiting (it holds the lock the seek needs); `returned` is to be called there once the seek returned.
    func seekQueued() -> () -> Void {
        let streaming = streaming, generation = streaming.seekQueued()
        return { streaming.seekReturned(generation) }
    }

    /// media.role=music lets the sound server apply its music policies (corking, per-role volume).
    private static func describeStream(_ output: Element, _ configuration: GStreamerEngine.Configuration) {
        guard output.hasProperty("stream-properties") else { return }
        let name = configuration.applicationName.filter { $0 != "\"" }
        output.set("stream-properties", "props,media.role=music,application.name=\"\(name)\","
                   + "application.icon_name=\(configuration.iconName)")
        if output.hasProperty("client-name") { output.set("client-name", name) }
    }

    /// What the output writes at a time (`latency-time`, `sizeBuffers`), and what decoders gather their output to.
    private static let outputSegmentMicroseconds = 100_000

    /// A music daemon needs no low-latency output: 1 s of buffer written in 100 ms segments wakes the
    /// sink and the sound server a tenth as often as GStreamer's 200 ms / 10 ms default (audio base sinks:
    /// pulsesink, alsasink). Values written in the sink description win. Pause, seek and volume do not
    /// wait for the buffer (cork, flush, stream volume). The description is searched with the standard library
    /// alone: `String.contains(String)` is _StringProcessing's, and it paged half a megabyte of that module's
    /// code into the daemon at start-up (docs/reliability.md, "Memory at rest").
    private static func sizeBuffers(_ output: Element, description: String) {
        let written = description.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard output.hasProperty("buffer-time"), output.hasProperty("latency-time"),
              !written.contains(where: { $0.hasPrefix("buffer-time") || $0.hasPrefix("latency-time") }) else { return }
        output.set("buffer-time", "1000000")
        output.set("latency-time", String(outputSegmentMicroseconds))
    }
}
