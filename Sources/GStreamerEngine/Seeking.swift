import GStreamer
import PlayerCore

/// What a load waits for until its first ASYNC_DONE: where to start and whether to play then.
struct Preroll {
    var position: Duration
    var playing: Bool
    /// A seek the core asked for arrived while loading: it is reported once the start seek lands.
    var reportSeek = false
    /// The rate changed while loading, possibly after the stream's segment went by.
    var applyRate = false
}

/// One flushing seek for playbin. `report` marks seeks the core asked for (`.seekCompleted` follows).
struct SeekRequest {
    var target: Duration
    var exact: Bool
    var report: Bool
}

/// Seeks are serialised the way GstPlay does it: a flushing seek sent while another is still in flight
/// makes the pipeline flush and preroll twice at once, so the newest request waits and replaces any
/// older waiting one (the last target and the rate at sending time win); it goes out at the ASYNC_DONE
/// of the one in flight. One `.seekCompleted` answers a burst of merged seeks, with where it landed.
extension GStreamerEngine {
    func requestSeek(_ request: SeekRequest) {
        lastPosition = request.target
        if seekInFlight == nil { return send(request) }
        let report = request.report || queuedSeek?.report == true
        queuedSeek = SeekRequest(target: request.target, exact: request.exact, report: report)
    }

    /// ASYNC_DONE of the seek in flight: the waiting one goes out, or the burst is over.
    func seekLanded() {
        guard let landed = seekInFlight else { return }
        seekInFlight = nil
        if var next = queuedSeek {
            queuedSeek = nil
            next.report = next.report || landed.report
            return send(next)
        }
        let position = livePosition() ?? landed.target
        lastPosition = position
        if landed.report { emit(.seekCompleted(position)) }
    }

    /// A seek playbin refuses (not prerolled yet, no seekable stream) brings no ASYNC_DONE: the burst
    /// ends here, reporting where playback is, so the core never waits for it.
    private func send(_ request: SeekRequest) {
        seekInFlight = request
        let rate = rate
        let groupSwitch = pipeline.groupSwitch
        groupSwitch.seekQueued()  // a switch waiting for the next file's check holds the lock this seek needs
        guard let accepted = bounded("a seek", { playbin in
            defer { groupSwitch.seekReturned() }
            return playbin.seek(to: request.target, rate: rate, exact: request.exact)
        }) else { return }
        if accepted { return }
        seekLanded()
    }
}
