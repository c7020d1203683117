import EventLoop
import GStreamer
import PlayerCore

/// A crossfade into the next item (docs/ARCHITECTURE.md, "Crossfade"): armed a few seconds before the joint, heard
/// from the overlap's start, over once playbin's copy of the incoming track starts (its first seconds cut off by
/// the CrossfadeJoint). GStreamerEngine.swift changes it; this file decides.
///
///   none ──tick: a joint not within an album, N + 3 s ahead──▶ armed ──overlap heard──▶ reported (the core follows
///   the incoming track) ──incoming STREAM_START──▶ none
///   armed ──seek, pause, rate, other next, stop, load──▶ none (the joint stays gapless)
///   reported ──seek, pause, rate, the outgoing track's end──▶ the incoming track loaded where it is heard
struct Crossfade {
    let incoming: EngineItem
    let track: IncomingTrack
    /// The outgoing track's stream time where the overlap starts, and how long it lasts.
    let start: Duration
    let length: Duration
    /// Reports the overlap heard once the output plays its start (it holds up to a second ahead).
    var heardTimer: LoopSource?
    /// The core was told the incoming track started: from then on commands are the incoming track's.
    var reported = false
    /// What the core prepared after the incoming track: handed over once playbin plays the incoming track.
    var preparedMeanwhile: EngineItem??

    /// The incoming track's position, from the output's `live` position: its time since the overlap's start, or
    /// `live` itself once playbin plays the incoming track. A time more than a second before the start can only be
    /// the incoming track's (cut at the overlap's length, at most half the outgoing one's); the report that the
    /// overlap is heard comes on a timer, a few tens of milliseconds early or late.
    func heardPosition(_ live: Duration) -> Duration {
        live >= start - .seconds(1) ? max(live - start, .zero) : live
    }
}

/// Where and how long the next joint overlaps.
struct CrossfadePlan {
    let incoming: EngineItem
    let seconds: Double
    let outgoingLength: Double
}

extension GStreamerEngine {
    /// Seconds before the overlap when the incoming track starts decoding.
    static let crossfadeLead = 3.0
    /// The least time left before the overlap to arm it: the output holds up to a second ahead of what is heard.
    static let crossfadeLeastLead = 1.5
    static let crossfadeTick = 0.5

    /// The joint ahead, if it is to overlap now: playing at rate 1, a seekable track of known length, a local
    /// next file that does not continue the album (checked, if not handed to playbin yet), the overlap due within
    /// `crossfadeLead` seconds. A track shorter than twice the setting overlaps for half its length.
    func crossfadePlan(seconds setting: Double) -> CrossfadePlan? {
        guard setting > 0, state.wantsPlaying, state.loaded.crossfade == nil, rate == 1, !state.loaded.liveStream,
              case .prerolled(let seeks) = state.phase, seeks.inFlight == nil, seeks.queued == nil,
              let incoming = streaming.crossfadeCandidate, incoming.isLocalFile, !incoming.continuesAlbum,
              let length = reported.duration, let heard = livePosition() else { return nil }
        let total = length.inSeconds, seconds = min(setting, total / 2)
        let left = total - heard.inSeconds - seconds
        // Its own pipeline reads the file as it is now: a WAV replaced since the check must not reach wavparse.
        guard left <= Self.crossfadeLead, left >= Self.crossfadeLeastLead, WAVGuard.refusal(fileURI: incoming.uri) == nil
        else { return nil }
        return CrossfadePlan(incoming: incoming, seconds: seconds, outgoingLength: total)
    }

    /// The joint's report that the overlap started, posted to the loop (it comes from a streaming thread).
    func overlapStartedReport() -> CrossfadeJoint.OverlapStarted {
        let engine = EngineReference(self)
        return { id in EventLoop.main.post { engine.engine?.apply(.overlapStarted(id)) } }
    }
}

extension StreamingSide {
    /// The item the current one goes on to: the one handed to playbin, or else the prepared one once checked.
    var crossfadeCandidate: EngineItem? {
        locked { shared in
            if let handed = shared.handover.handedToPlaybin.first { return handed.isSuccessor ? handed.item : nil }
            guard let next = shared.handover.next, !shared.handover.preparedAwaitsCheck else { return nil }
            return next.item
        }
    }
}

/// The engine, for reports from streaming threads that are only posted to the loop and used there.
private final class EngineReference: @unchecked Sendable {
    weak var engine: GStreamerEngine?
    init(_ engine: GStreamerEngine) { self.engine = engine }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
