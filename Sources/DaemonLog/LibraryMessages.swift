import EventLoop
import Logging

/// GLib's, GStreamer's and the plugins' own warnings (`GLibMessages`) in the daemon's log: one format,
/// journald priorities, credentials masked, as every other line. GLib's error level aborts the process
/// after the line, hence critical; its debug chatter stays at debug.
public enum LibraryMessages {
    /// From now on, each message is logged through `logger` at the level its severity maps to, under the
    /// logger's label as its source (a line names the program, not this module).
    public static func route(into logger: Logger) {
        GLibMessages.route { severity, domain, message in
            logger.log(level: level(of: severity), "\(domain.isEmpty ? "GLib" : domain): \(message)", source: logger.label)
        }
    }

    static func level(of severity: GLibMessages.Severity) -> Logger.Level {
        switch severity {
        case .error: .critical
        case .critical: .error
        case .warning: .warning
        case .message: .notice
        case .info, .debug: .debug
        }
    }
}

extension DaemonLogHandler {
    /// Makes this the process's log handler, at the level `spelling` names (swift-log's names; an unknown one:
    /// info), in the style stderr calls for, with GLib's and GStreamer's messages routed into it under `label`.
    public static func bootstrap(level spelling: String, label: String) {
        let level = Logger.Level(rawValue: spelling) ?? .info
        let style = Style.detect()
        LoggingSystem.bootstrap { DaemonLogHandler(label: $0, level: level, style: style) }
        LibraryMessages.route(into: Logger(label: label))
    }
}
