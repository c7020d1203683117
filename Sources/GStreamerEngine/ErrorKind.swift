import GStreamer
import PlayerCore

extension EngineError.Kind {
    /// Sorts a GStreamer error into what the core needs to know. `fromOutput`: posted by our sink.
    /// `pluginMissing`: a missing-plugin element message came first (decodebin posts one before
    /// STREAM_ERROR_CODEC_NOT_FOUND), which is the precise reason.
    init(_ error: GStreamerError, fromOutput: Bool, pluginMissing: Bool, uri: String) {
        if pluginMissing { self = .missingPlugin; return }
        if fromOutput { self = .outputUnavailable; return }
        let remote = !uri.hasPrefix("file:")
        switch error.reason {
        case .resourceNotFound: self = .notFound
        case .resourceNotAuthorized: self = .unreadable
        case .resourceReadFailed: self = remote ? .network : .unreadable
        case .resourceOther: self = remote ? .network : .other
        case .codecNotFound, .missingPlugin: self = .missingPlugin
        case .undecodable: self = .undecodable
        case .streamOther, .other: self = .other
        }
    }
}
