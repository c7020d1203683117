import PlayerCore

/// How playback health is spelled on the bus (org.quaver.Quaver1 `WaitingReason`, `LastErrorKind`, the
/// `quaver:status` and `quaver:errorKind` entries of GetQueue): one spelling for the daemon, the CLI and the tests.
public enum HealthSpelling {
    public static func waitingReason(_ reason: WaitingReason) -> String {
        switch reason {
        case .none: "none"
        case .loading: "loading"
        case .network: "network"
        case .outputGone: "output-gone"
        case .interruption: "interruption"
        }
    }

    public static func trackStatus(_ status: TrackStatus) -> String {
        switch status {
        case .unknown: "unknown"
        case .loading: "loading"
        case .ready: "ready"
        case .failed: "failed"
        }
    }

    public static func errorKind(_ kind: EngineError.Kind) -> String {
        switch kind {
        case .notFound: "not-found"
        case .unreadable: "unreadable"
        case .undecodable: "undecodable"
        case .missingPlugin: "missing-plugin"
        case .outputUnavailable: "output-unavailable"
        case .network: "network"
        case .other: "other"
        }
    }
}
