import GStreamer

/// The place on playbin's stream where a crossfade happens (docs/ARCHITECTURE.md, "Crossfade"): a `SampleRewriteProbe` adds
/// the incoming track's first seconds into the outgoing track's last ones, and a `LeadingCutProbe` on the same pad
/// cuts what was mixed off the incoming track when playbin, handed it at about-to-finish, starts its stream, so
/// that it carries on at the sample where the mix ended. Outside an overlap both probes let every buffer and
/// event pass untouched: a joint nobody armed stays gapless and bit-exact.
///
/// Threads: `arm` and `end` on the loop, the probes on streaming threads; what they share is `StreamingSide`'s
/// (one pipeline's: a playbin given up changes nothing), and the samples are mixed outside its lock.
final class CrossfadeJoint {
    /// Told on a streaming thread, naming the overlap by its incoming track: the first mixed buffer passed (the
    /// incoming track is heard from now on).
    typealias OverlapStarted = @Sendable (ObjectIdentifier) -> Void

    private let mixing: SampleRewriteProbe
    private let cutting: LeadingCutProbe
    private let state: JointAccess

    /// On `element`'s pad `padName`, for the pipeline of `generation`; fails if it has no such pad.
    init?(element: Element, padName: String, streaming: StreamingSide, generation: Int) {
        let state = JointAccess(streaming: streaming, generation: generation)
        self.state = state
        guard let mixing = SampleRewriteProbe(element: element, padName: padName, rewriter: { pts in
            Self.mixer(at: pts, state)
        }), let cutting = LeadingCutProbe(element: element, padName: padName, cut: {
            Self.cutAtStreamStart(state)
        }) else { return nil }
        self.mixing = mixing
        self.cutting = cutting
    }

    /// Loop thread, once the outgoing track streams through the pad: decodes `uri` (started here, levelled by
    /// `levelling` and given `equalizer`'s gains, as IncomingTrack takes them) to be added into
    /// the outgoing track's last `seconds`, which ends at `outgoingLength` seconds of its stream time. `nil` (and
    /// nothing armed) when the pad's format is not one the mix handles, or the incoming pipeline cannot be built.
    func arm(incoming uri: String, levelling: String? = nil, equalizer: EqualizerGains? = nil, seconds: Double,
             outgoingLength: Double, started: @escaping OverlapStarted) -> IncomingTrack? {
        guard let audio = mixing.currentAudio, let format = MixedSampleFormat(rawValue: audio.format), let caps = mixing.currentCaps,
              let incoming = try? IncomingTrack(uri: uri, caps: caps, levelling: levelling, equalizer: equalizer) else { return nil }
        let curve = EqualPowerCurve(start: outgoingLength - seconds, length: seconds)
        let mix = OverlapMix(format: format, channels: audio.channels, rate: audio.rate, curve: curve)
        guard incoming.start() != .failure else { return nil }
        state.withLock { $0 = JointState(overlap: Overlap(incoming: incoming, mix: mix, started: started), active: true) }
        return incoming
    }

    /// Loop thread: nothing is mixed or cut any more; the incoming track, if one was armed, is the caller's to stop.
    func end() -> IncomingTrack? {
        state.withLock { state in
            defer { state = JointState() }
            return state.overlap?.incoming
        } ?? nil
    }

    /// Frames of the outgoing track mixed with an incoming sample, and those that had none ready (for the log, read
    /// before `end`).
    var figures: (mixed: Int, missed: Int) {
        state.withLock { ($0.mixedFrames, $0.missedFrames) } ?? (0, 0)
    }

    /// Streaming thread: what to do to a buffer at `pts`: nothing unless an overlap is armed and the buffer may
    /// reach into it (no buffer lasts a second).
    private static func mixer(at pts: Double, _ state: JointAccess) -> ((UnsafeMutableRawBufferPointer) -> Void)? {
        guard let overlap = state.withLock({ $0.active ? $0.overlap : nil }) ?? nil, pts > overlap.mix.curve.start - 1 else { return nil }
        return { bytes in
            let frames = bytes.count / overlap.mix.bytesPerFrame
            let inOverlap = frames - overlap.mix.firstMixedFrame(of: bytes, at: pts)
            let missed = overlap.incoming.mix(into: bytes, firstFrameAt: pts, with: overlap.mix)
            guard inOverlap > 0 else { return }
            let first = state.withLock { state in
                guard state.active, state.overlap?.incoming === overlap.incoming else { return false }
                state.mixedFrames += inOverlap - missed
                state.missedFrames += missed
                defer { state.started = true }
                return !state.started
            } ?? false
            if first { overlap.started(ObjectIdentifier(overlap.incoming)) }
        }
    }

    /// Streaming thread, at each STREAM_START on the pad, the first after `arm` being the incoming track's: the
    /// overlap is over, and that stream is cut by what of it was mixed (counted in frames, so it goes on at the next
    /// sample even if some were missing). One starting before any mix (the overlap never began) is left whole.
    private static func cutAtStreamStart(_ state: JointAccess) -> Double? {
        state.withLock { state -> Double? in
            guard let overlap = state.overlap, state.active else { return nil }
            state.active = false
            return state.started ? Double(state.mixedFrames) / Double(overlap.mix.rate) : nil
        } ?? nil
    }
}

/// One armed overlap: the incoming track and how it is added.
struct Overlap: @unchecked Sendable {
    /// Its samples are taken and mixed by one streaming thread at a time (the one passing the outgoing track).
    let incoming: IncomingTrack
    let mix: OverlapMix
    let started: CrossfadeJoint.OverlapStarted
}

/// A crossfade joint's state, shared with its probes (`StreamingSide.Shared.joint`).
struct JointState: Sendable {
    /// The overlap armed; kept once it is over, until the loop ends it and stops its incoming track.
    var overlap: Overlap?
    /// Armed, and the incoming track's stream has not started in playbin yet.
    var active = false
    var started = false
    var mixedFrames = 0
    var missedFrames = 0
}

/// The joint's state in `StreamingSide`, as long as the joint's pipeline is the one playing.
private struct JointAccess: Sendable {
    let streaming: StreamingSide
    let generation: Int

    func withLock<T>(_ body: (inout JointState) -> T) -> T? {
        streaming.locked { shared in shared.generation == generation ? body(&shared.joint) : nil }
    }
}
