import GStreamer

/// Loudness levelling from the tracks' ReplayGain tags (REPLAYGAIN_TRACK_GAIN/PEAK, REPLAYGAIN_ALBUM_GAIN/PEAK),
/// applied by GStreamer's `rgvolume` in front of the audio filter:
///
///   playbin ──▶ audio-filter [ rgvolume ─▶ scaletempo ] ──▶ sink
///
/// `rgvolume` reads the tags of each stream that passes and sets its gain to the tagged one plus the pre-amp;
/// since it forgets old tags only at EOS, which a gapless switch lacks, each stream's tags are made whole
/// before it reads them (ReplayGainTags). Clipping is prevented by the same element: with `headroom=0` the gain is
/// lowered until the tagged peak reaches full scale at most, a missing peak counting as full scale (measured:
/// a 0.9 tone tagged 0 dB without a peak stays at 0.9 with +6 dB pre-amp). So no limiter is needed, and
/// `rglimiter` is left out: it converts every sample to float, which would end bit-exactness. A track without
/// tags plays at 0 dB, where `rgvolume` passes samples through untouched (bit-exact, measured). With
/// ReplayGain off nothing is added.
///
/// "auto" chooses per track: the album's gain when the track before or after it in play order is from
/// the same album (the core says so in `EngineItem.sharesAlbumWithNeighbour`), the track's own otherwise.
/// `rgvolume`'s `album-mode` is switched when the track's STREAM_START reaches the filter, before any of
/// its samples (GStreamerEngine), and again if the core learns more while it plays (`update`).
public struct ReplayGain: Equatable, Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        /// No elements added: the pipeline of a build without ReplayGain.
        case off
        /// Each track's own gain.
        case track
        /// The album's gain (tracks keep their loudness relative to each other); the track's if untagged.
        case album
        /// The album's gain within a run of one album's tracks, the track's own for a track alone.
        case auto
    }

    public var mode: Mode
    /// Added to the gain of every tagged track, dB (rgvolume's range: −60…60).
    public var preAmp: Double

    public init(mode: Mode = .off, preAmp: Double = 0) {
        self.mode = mode
        self.preAmp = preAmp
    }

    /// The name of the `rgvolume` inside the filter, for `album-mode` in "auto".
    static let volumeElementName = "replaygain"

    /// `rgvolume` as a `gst-launch` fragment. Numbers are written with a dot whatever the locale (Swift's
    /// description). fallback-gain 0: untagged tracks as they are.
    var volumeElement: String {
        "rgvolume name=\(Self.volumeElementName) album-mode=\(mode == .album) pre-amp=\(preAmp) headroom=0 fallback-gain=0"
    }

    /// The `rgvolume` of a crossfade's incoming track (IncomingTrack), levelling it by its own tags as playbin's
    /// will once it takes the track over; `nil` when off. In "auto", the album's gain when `albumGain`.
    func incomingVolumeElement(albumGain: Bool) -> String? {
        guard mode != .off else { return nil }
        return "rgvolume album-mode=\(mode == .album || (mode == .auto && albumGain)) pre-amp=\(preAmp) headroom=0 fallback-gain=0"
    }

    /// playbin's audio-filter: `scaletempo` alone when there is nothing else, otherwise a bin of the ReplayGain
    /// elements (unless off), the equaliser's (`equalizer`, a `gst-launch` fragment) and a scaletempo of its own
    /// (when the plugin is there at all). Throws when the replaygain plugin (gst-plugins-good) is missing: the
    /// user asked for levelling, silently playing without it would lie.
    func audioFilter(withScaletempo scaletempo: Element?, equalizer: String?) throws -> Element? {
        let parts = (mode == .off ? [] : [volumeElement]) + (equalizer.map { [$0] } ?? [])
        guard !parts.isEmpty else { return scaletempo }
        return try Element.parseBin((parts + (scaletempo == nil ? [] : ["scaletempo"])).joined(separator: " ! "))
    }
}

/// ReplayGain's part of what the streaming threads share (`StreamingSide`): the `rgvolume` playing now, whose
/// album mode "auto" switches at each new stream, and the tags told it for the stream passing the filter.
/// Both are the playing pipeline's (its generation); the element is replaced with the filter at every NULL
/// (FilterSlot), when nothing streams.
extension StreamingSide {
    /// Loop thread: `filter`'s `rgvolume` from now on, in pipeline `generation`.
    func useAlbumVolume(in filter: Element?, generation: Int) {
        let found = filter?.child(named: ReplayGain.volumeElementName)
        locked { shared in if shared.generation == generation { shared.albumVolume = found } }
    }

    /// Album gain or the track's; any thread. rgvolume recomputes its gain on every property change.
    func setAlbumGain(_ albumGain: Bool) {
        guard let element = locked({ $0.albumVolume }) else { return }
        element.set("album-mode", albumGain ? "true" : "false")
    }

    /// Streaming thread, when a stream starts in the filter of pipeline `generation`: the album mode of the item
    /// whose stream it is, the oldest handed to playbin (the loop takes it off the list only at the bus's
    /// STREAM_START, which follows this one).
    func albumModeAtStreamStart(generation: Int) {
        let (element, albumGain) = locked { shared in
            shared.generation == generation
                ? (shared.albumVolume, shared.handover.handedToPlaybin.first?.item.sharesAlbumWithNeighbour ?? false)
                : (nil, false)
        }
        element?.set("album-mode", albumGain ? "true" : "false")
    }

    /// Streaming thread: a new stream in pipeline `generation`; the tags to send into the filter first.
    func replayGainStreamStarted(generation: Int) -> [String: Double] {
        locked { shared in if shared.generation == generation { shared.replayGainTags.reset() } }
        return ReplayGainTags.neutral
    }

    /// Streaming thread: a tag event with ReplayGain tags in pipeline `generation`; the whole set it should carry.
    func replayGainTagsArrived(_ found: [String: Double], generation: Int) -> [String: Double] {
        locked { shared in
            guard shared.generation == generation else {
                var alone = ReplayGainTags()
                return alone.adding(found)
            }
            return shared.replayGainTags.adding(found)
        }
    }
}

/// The ReplayGain tags of the stream passing the filter, made whole before `rgvolume` reads them.
///
/// `rgvolume` keeps the gains and peaks tags told it until an EOS or a new load, and a gapless switch brings
/// neither: without help, a track with no ReplayGain tags after a tagged one kept the tagged one's gain
/// (measured: −6 dB instead of 0 dB), and a track with only a track gain kept the previous album gain in album
/// mode. So at each new stream the filter is first told the values `rgvolume` assumes for an untagged track
/// (`neutral`), and every event with ReplayGain tags is made to carry all five, filled as `rgvolume` itself
/// would fall back: the album's gain for a missing track gain and the other way round, full scale for a
/// missing peak. Values `rgvolume` would ignore (a gain beyond ±60 dB after the reference-level correction,
/// a peak not above 0) count as missing here, so they cannot overwrite the neutral ones.
struct ReplayGainTags: Sendable {
    // GStreamer's tag names (GST_TAG_TRACK_GAIN and its neighbours).
    static let trackGain = "replaygain-track-gain"
    static let trackPeak = "replaygain-track-peak"
    static let albumGain = "replaygain-album-gain"
    static let albumPeak = "replaygain-album-peak"
    static let referenceLevel = "replaygain-reference-level"
    static let names = [trackGain, trackPeak, albumGain, albumPeak, referenceLevel]
    /// ReplayGain's reference loudness, dB SPL: gains are relative to it (`rgvolume`'s RG_REFERENCE_LEVEL).
    static let standardReferenceLevel = 89.0

    /// What an untagged track plays at: 0 dB, room up to full scale.
    static let neutral = [trackGain: 0.0, trackPeak: 1.0, albumGain: 0.0, albumPeak: 1.0,
                          referenceLevel: standardReferenceLevel]

    private var told: [String: Double] = [:]

    /// A new stream: nothing told yet.
    mutating func reset() { told = [:] }

    /// Adds what a tag event says and returns the complete set the event should carry.
    mutating func adding(_ tags: [String: Double]) -> [String: Double] {
        told.merge(tags) { $1 }
        return complete
    }

    private var complete: [String: Double] {
        let reference = told[Self.referenceLevel] ?? Self.standardReferenceLevel
        func gain(_ name: String) -> Double? {
            told[name].flatMap { abs($0 + Self.standardReferenceLevel - reference) < 60 ? $0 : nil }
        }
        func peak(_ name: String) -> Double? { told[name].flatMap { $0 > 0 ? $0 : nil } }
        let track = gain(Self.trackGain), album = gain(Self.albumGain)
        guard let either = track ?? album else { return Self.neutral }
        let trackPeak = (track == nil ? peak(Self.albumPeak) : peak(Self.trackPeak)) ?? 1
        let albumPeak = (album == nil ? peak(Self.trackPeak) : peak(Self.albumPeak)) ?? 1
        return [Self.trackGain: track ?? either, Self.trackPeak: trackPeak, Self.albumGain: album ?? either,
                Self.albumPeak: albumPeak, Self.referenceLevel: reference]
    }
}
