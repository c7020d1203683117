import CGStreamer

extension GStreamerError {
    /// The error codes Quaver tells apart (`GstResourceError`, `GstStreamError`, `GstCoreError`).
    public enum Reason: Equatable, Sendable {
        case resourceNotFound, resourceNotAuthorized, resourceReadFailed, resourceOther
        case codecNotFound, undecodable, streamOther
        case missingPlugin
        case other
    }

    public var reason: Reason {
        switch domain {
        case .resource: return resourceReason
        case .stream: return streamReason
        case .core where code == Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue): return .missingPlugin
        default: return .other
        }
    }

    private var resourceReason: Reason {
        switch UInt32(code) {
        case GST_RESOURCE_ERROR_NOT_FOUND.rawValue: return .resourceNotFound
        case GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue: return .resourceNotAuthorized
        case GST_RESOURCE_ERROR_OPEN_READ.rawValue, GST_RESOURCE_ERROR_READ.rawValue,
             GST_RESOURCE_ERROR_SEEK.rawValue:
            return .resourceReadFailed
        default: return .resourceOther
        }
    }

    private var streamReason: Reason {
        switch UInt32(code) {
        case GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue: return .codecNotFound
        case GST_STREAM_ERROR_TYPE_NOT_FOUND.rawValue, GST_STREAM_ERROR_DECODE.rawValue,
             GST_STREAM_ERROR_DEMUX.rawValue, GST_STREAM_ERROR_FORMAT.rawValue,
             GST_STREAM_ERROR_WRONG_TYPE.rawValue, GST_STREAM_ERROR_FAILED.rawValue:
            return .undecodable
        default: return .streamOther
        }
    }
}
