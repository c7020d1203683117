import CGStreamer

/// `GstState`.
public enum State: Equatable, Sendable {
    case null, ready, paused, playing

    var raw: GstState {
        switch self {
        case .null: return GST_STATE_NULL
        case .ready: return GST_STATE_READY
        case .paused: return GST_STATE_PAUSED
        case .playing: return GST_STATE_PLAYING
        }
    }

    init(_ raw: GstState) {
        switch raw {
        case GST_STATE_PLAYING: self = .playing
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_READY: self = .ready
        default: self = .null
        }
    }
}

/// What `gst_element_set_state` answered. `.async` is not a failure: the change completes later
/// and is reported by ASYNC_DONE (or an ERROR message).
public enum StateChange: Equatable, Sendable {
    case success, async, noPreroll, failure
}

extension Element {
    /// `gst_element_set_state`. Downward changes finish before it returns; upward ones are often `.async`.
    @discardableResult
    public func setState(_ state: State) -> StateChange {
        switch gst_element_set_state(pointer, state.raw) {
        case GST_STATE_CHANGE_SUCCESS: return .success
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .failure
        }
    }

    /// The state reached so far, without waiting (`gst_element_get_state` with a zero timeout).
    public var currentState: State {
        var current = GST_STATE_NULL
        var pending = GST_STATE_NULL
        gst_element_get_state(pointer, &current, &pending, 0)
        return State(current)
    }

    /// `gst_element_query_position` in time; `nil` when the element cannot answer now.
    public func queryPosition() -> Duration? {
        var value: gint64 = 0
        guard gst_element_query_position(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return Duration(nanoseconds: Int64(value))
    }

    /// `gst_element_query_duration` in time; `nil` when unknown (live streams, before preroll).
    public func queryDuration() -> Duration? {
        var value: gint64 = 0
        guard gst_element_query_duration(pointer, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return Duration(nanoseconds: Int64(value))
    }

    /// A SEEKING query in time (`gst_query_new_seeking`, `gst_query_parse_seeking`); `nil` if unanswered.
    public func querySeekable() -> Bool? {
        guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
        defer { gst_query_unref(query) }
        guard gst_element_query(pointer, query) != 0 else { return nil }
        var seekable: gboolean = 0
        gst_query_parse_seeking(query, nil, &seekable, nil, nil)
        return seekable != 0
    }

    /// A flushing seek to `position` at `rate` (`gst_element_seek`): `exact` asks for ACCURATE,
    /// otherwise KEY_UNIT (faster, lands on a nearby key unit). Returns whether the seek was accepted.
    @discardableResult
    public func seek(to position: Duration, rate: Double = 1, exact: Bool) -> Bool {
        let mode = exact ? GST_SEEK_FLAG_ACCURATE.rawValue
                         : GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | mode)
        return gst_element_seek(pointer, rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET,
                                gint64(max(0, position.nanoseconds)), GST_SEEK_TYPE_NONE, -1) != 0
    }
}
