import Logging
import PublicText

/// Every log line of the daemon goes through here: journald and log files keep what they are given, and
/// a message may quote a URL with a password (an engine error names the URL it failed on). The message
/// and string metadata get `PublicText.from`: credentials masked, NUL removed, at most a URL's length.
struct MaskingLogHandler: LogHandler {
    private var inner: StreamLogHandler

    init(_ inner: StreamLogHandler) {
        self.inner = inner
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.masked(event.message.description))"
        event.metadata = event.metadata?.mapValues { value in
            if case .string(let text) = value { return .string(Self.masked(text)) }
            return value
        }
        inner.log(event: event)
    }

    private static func masked(_ text: String) -> String {
        PublicText.from(text, limit: PublicText.maximumURLUTF8Count)
    }
}
