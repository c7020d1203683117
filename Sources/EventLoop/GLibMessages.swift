import CGLib
import CShims
import Synchronization

/// The warnings and criticals that GLib, GObject, GStreamer and its plugins log (`g_warning`,
/// `g_return_if_fail`, ...). GLib writes them to stderr by default, as `(quaverd:123): GStreamer-WARNING **:
/// ...` lines that journald files at one priority and that may quote a URL with its password. Once routed,
/// they reach the program's own log instead, at their own priority and through its masking.
public enum GLibMessages {
    public enum Severity: Sendable, Equatable {
        /// G_LOG_LEVEL_ERROR: GLib aborts the process after logging it.
        case error
        case critical
        case warning
        case message
        case info
        case debug
    }

    public typealias Handler = @Sendable (_ severity: Severity, _ domain: String, _ message: String) -> Void

    /// Sends every GLib message to `handler` from now on, on whichever thread logged it. A later call
    /// replaces the handler; GLib's writer is installed once, at the first call.
    public static func route(to handler: @escaping Handler) {
        let firstRoute = routedHandler.withLock { current in
            defer { current = handler }
            return current == nil
        }
        if firstRoute { quaver_route_glib_messages(receive) }
    }

    private static let routedHandler = Mutex<Handler?>(nil)

    private static let receive: quaver_glib_message_sink = { level, domain, domainLength, message, length in
        guard let message else { return }
        let text = String(decoding: UnsafeRawBufferPointer(start: message, count: length), as: UTF8.self)
        let domainText = domain.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: domainLength), as: UTF8.self)
        } ?? ""
        GLibMessages.routedHandler.withLock { $0 }?(Severity(level), domainText, text)
    }
}

extension GLibMessages.Severity {
    /// The most severe GLogLevelFlags bit of `level`.
    init(_ level: Int32) {
        func has(_ flag: GLogLevelFlags) -> Bool {
            UInt32(bitPattern: level) & UInt32(truncatingIfNeeded: flag.rawValue) != 0
        }
        if has(G_LOG_LEVEL_ERROR) {
            self = .error
        } else if has(G_LOG_LEVEL_CRITICAL) {
            self = .critical
        } else if has(G_LOG_LEVEL_WARNING) {
            self = .warning
        } else if has(G_LOG_LEVEL_MESSAGE) {
            self = .message
        } else if has(G_LOG_LEVEL_INFO) {
            self = .info
        } else {
            self = .debug
        }
    }
}
