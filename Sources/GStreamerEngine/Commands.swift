import GStreamer
import PlayerCore

/// The AudioEngine the core drives: every command goes to `apply` (GStreamerEngine.swift).
extension GStreamerEngine {
    /// MIME types the installed GStreamer can decode: sink caps of audio decoders and of demuxers, read from the
    /// registry (which runs `gst_init`; the daemon asks `InstalledFeatures`, which keeps the answer).
    public static func supportedMimeTypes() -> [String] {
        // A klass is words joined by "/" ("Codec/Decoder/Audio"): compared word by word. A substring
        // search (Foundation's, or the standard library's generic firstRange) took most of the call's time.
        Registry.sinkMediaTypes { klass in
            let words = klass.split(separator: "/")
            return words.contains("Demuxer") || (words.contains("Decoder") && words.contains("Audio"))
        }.filter { !$0.hasSuffix("/x-raw") }
    }

    /// Loading forgets a prepared next item: call `prepareNext` after `load`.
    public func load(_ item: EngineItem, at position: Duration, playing: Bool) {
        apply(.load(item, at: position, playing: playing))
    }

    /// The same entry prepared again with new facts keeps its download going.
    public func prepareNext(_ item: EngineItem?) { apply(.prepareNext(item)) }

    /// While an item handed to playbin has not started, the album mode is its own (set at its start).
    public func update(_ item: EngineItem) { apply(.update(item)) }

    public func play() { apply(.play) }
    public func playOnNewOutput(device: String?) { apply(.playOnNewOutput(device: device)) }
    public func pause() { apply(.pause) }
    public func stop() { apply(.stop) }
    public func seek(to position: Duration, exact: Bool) { apply(.seek(position, exact: exact)) }
    public func setRate(_ rate: Double) { apply(.rate(rate)) }
    public func setVolume(_ volume: Double) { apply(.volume(volume)) }
    public func setCrossfade(seconds: Double) { apply(.crossfade(seconds: seconds)) }

    var network: NetworkOptions { configuration.network }
    var rate: Double { streaming.rate }
    /// The item whose stream has started, until stop/load/failure.
    var current: EngineItem? { state.loaded.current }

    /// What the next file's check read of `item` (tags, cover, length), when `item` is the one loaded or prepared
    /// and its file has not changed since: the prompt tag read of a track becoming current (TagScanner) need
    /// not preroll the file a second time.
    public func checkedRead(of item: EngineItem) -> (tags: TrackTags, duration: Duration?)? {
        if let (checked, read) = state.loaded.checkedRead, checked.id == item.id, checked.uri == item.uri { return read }
        return streaming.preparedRead(of: item)
    }

    /// The prepared item goes to the handover; a local file is checked first (NextItemCheck).
    func prepareHandover(_ item: EngineItem?) {
        if let item, streaming.refresh(item) { return }
        streaming.prepare(item, remote: prepareRemote(for: item))
        if let item, item.isLocalFile { nextItemCheck.check(item) }
        startPrefetchIfIdle()
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
        guard let pipeline else { return nil }
        if !pipeline.isStuck, let answer = pipeline.output.queryPosition() { return answer }
        return query { $0.queryPosition() }
    }

    /// Every way down to NULL goes through here: the bus forgets the old stream's messages, and the
    /// tempo filter is renewed before the pipeline goes up again. Nothing to do before the first load built one.
    func stopPipeline() {
        guard pipeline != nil else { return }
        goToNull()
        pipeline?.playbin.bus.dropPending()
        pipeline?.audioFilter?.renew()
    }

    /// NULL, never while playbin switches to the next item (GroupSwitch says why). A playbin that does not
    /// get there is replaced by a new one, which is at NULL.
    private func goToNull() {
        guard let pipeline else { return }
        let (switchEnded, reached) = pipeline.goToNull(switchTimeout: Self.switchTimeout, limit: Self.stateChangeLimit)
        if !switchEnded {
            Self.log.warning("playbin's switch to the next item had not ended after \(Self.switchTimeout) s; stopped it all the same")
        }
        if !reached { replaceStuckPipeline(stuckIn: "going to NULL") }
    }

    static let switchTimeout = 2.0

    /// A seek on playbin at the rate asked for; `nil` when playbin did not come back (it has been replaced).
    func seekPlaybin(_ request: SeekRequest) -> Bool? {
        let rate = rate
        guard let returned = pipeline?.seekQueued() else { return nil }  // a switch waiting for the next file's check holds the lock this seek needs
        return bounded("a seek") { playbin in
            defer { returned() }
            return playbin.seek(to: request.target, rate: rate, exact: request.exact)
        }
    }

    func emit(_ event: AudioEngineEvent) {
        delegate?.engine(self, didEmit: event)
    }
}
