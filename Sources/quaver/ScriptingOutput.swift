import ControlAPI
import TerminalText

// What `--json` and `--format` print. The JSON field names and the format fields are an interface for
// scripts and status bars (docs/scripting.md lists them): add fields, never rename or remove one.

extension TrackInfo {
    /// A track's fields, shared by `status --json` and `queue --json`; unknown values (or no track) are null.
    static func jsonFields(_ track: TrackInfo?) -> [(String, JSONValue)] {
        [("title", .optional(track?.title)),
         ("artists", .array((track?.artists ?? []).map { .string($0) })),
         ("album", .optional(track?.album)),
         ("url", .optional(track?.url)),
         ("length_us", .optional(track?.length))]
    }
}

extension PlayerStatus {
    /// One JSON object; the position is the one extrapolated to `now`.
    func json(at now: Int64) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("state", .string(state)),
            ("status", .string(playbackStatus)),
            ("track_id", .optional(track?.trackID?.rawValue)),
        ]
        fields += TrackInfo.jsonFields(track)
        fields += [
            ("position_us", .integer(position(at: now))),
            ("volume", .number(volume)),
            ("rate", .number(rate)),
            ("loop", .string(loop)),
            ("shuffle", .boolean(shuffle)),
            ("buffering_percent", .integer(Int64(bufferingPercent))),
            ("error", .string(lastError)),
            ("sleep_timer", .string(sleepTimer?.mode.rawValue ?? SleepTimerSpelling.off.rawValue)),
            ("sleep_seconds", sleepTimer?.mode == .time ? .integer(sleepTimer?.seconds ?? 0) : .null),
            ("waiting_reason", .string(waitingReason)),
            ("error_kind", .string(lastErrorKind)),
        ]
        return .object(fields)
    }

    /// The fields `--format` knows, in the order its error message lists them.
    static let formatFields = ["artist", "title", "album", "url", "position", "length", "position_us", "length_us",
                               "status", "state", "volume", "rate", "loop", "shuffle", "trackid", "error"]

    /// The `--format` fields' values: times as `m:ss`, the volume in percent.
    func formatValues(at now: Int64) -> [String: String] {
        let position = position(at: now)
        return [
            "artist": track?.artists.joined(separator: ", ") ?? "",
            "title": track?.title ?? "",
            "album": track?.album ?? "",
            "url": track?.url ?? "",
            "position": TimeText.format(microseconds: position),
            "length": track?.length.map { TimeText.format(microseconds: $0) } ?? "",
            "position_us": String(position),
            "length_us": track?.length.map { String($0) } ?? "",
            "status": playbackStatus,
            "state": state,
            "volume": String(Int((volume * 100).rounded())),
            "rate": String(rate),
            "loop": loop,
            "shuffle": shuffle ? "on" : "off",
            "trackid": track?.trackID?.rawValue ?? "",
            "error": lastError,
        ]
    }
}

extension QueueSnapshot {
    /// `{"current": 1-based index or null, "tracks": [...]}`.
    var json: JSONValue {
        let currentIndex = entries.firstIndex { $0.id == current }
        let tracks = entries.enumerated().map { index, entry -> JSONValue in
            .object([("index", .integer(Int64(index + 1))),
                     ("track_id", .string(entry.id.rawValue)),
                     ("current", .boolean(index == currentIndex))] + TrackInfo.jsonFields(entry.metadata))
        }
        return .object([("current", currentIndex.map { .integer(Int64($0 + 1)) } ?? .null),
                        ("tracks", .array(tracks))])
    }
}
