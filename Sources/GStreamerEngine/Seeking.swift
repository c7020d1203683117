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
/// These are the decisions; `GStreamerEngine.apply` carries them out.
struct Seeks {
    /// The seek playbin is carrying out, until its ASYNC_DONE.
    var inFlight: SeekRequest?
    /// The newest seek asked for while one was in flight: sent at that one's ASYNC_DONE.
    var queued: SeekRequest?

    /// `request` asked for: what to send now (nothing while one is in flight), and the seeks after it.
    func asking(_ request: SeekRequest) -> (seeks: Seeks, send: SeekRequest?) {
        guard inFlight != nil else { return (Seeks(inFlight: request), request) }
        let report = request.report || queued?.report == true
        return (Seeks(inFlight: inFlight, queued: SeekRequest(target: request.target, exact: request.exact,
                                                              report: report)), nil)
    }

    /// The seek in flight landed (or was refused): the waiting one goes out, taking over its report, or the
    /// burst is over and `landed` is the one to answer.
    func landing() -> (seeks: Seeks, send: SeekRequest?, landed: SeekRequest?) {
        guard let landed = inFlight else { return (self, nil, nil) }
        guard var next = queued else { return (Seeks(), nil, landed) }
        next.report = next.report || landed.report
        return (Seeks(inFlight: next), next, nil)
    }
}
