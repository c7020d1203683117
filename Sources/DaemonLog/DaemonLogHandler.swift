// DaemonLog: quaverd's swift-log handler, and the libraries' own messages routed into it (LibraryMessages).
// May import TerminalText, PublicText, EventLoop, Foundation and swift-log.
import FoundationEssentials
import Glibc
import Logging
import PublicText
import TerminalText

/// quaverd's log lines on stderr, in one of two styles:
/// - `journal`, when stderr is connected to journald (systemd's `StandardError=journal`, the default for
///   units): `<4>quaverd: message`. journald reads the `<N>` prefix as the line's syslog priority (so
///   `journalctl -p warning` filters), and stamps each line itself, so the line carries no time of its own.
/// - `terminal`, anywhere else: `2026-11-23T21:56:01+0000 warning quaverd: [quaverd] message`, as
///   swift-log's StreamLogHandler writes it (time, level, label, metadata, source module), readable without journald.
/// Messages quote tags, URLs and file names: control and bidi characters in them are made inert
/// (`InertText`), so a line is one line and cannot act on the terminal that shows it.
public struct DaemonLogHandler: LogHandler {
    public enum Style: Equatable, Sendable {
        case terminal
        case journal

        /// `journal` when JOURNAL_STREAM names stderr. systemd sets it to stderr's `device:inode` when it
        /// connects stderr to the journal; a child whose stderr was redirected inherits the variable but no
        /// longer matches it, and then keeps the terminal style.
        public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  standardError: Int32 = STDERR_FILENO) -> Style {
            guard let stream = environment["JOURNAL_STREAM"] else { return .terminal }
            var status = stat()
            guard fstat(standardError, &status) == 0 else { return .terminal }
            return stream == "\(status.st_dev):\(status.st_ino)" ? .journal : .terminal
        }
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let style: Style
    private let output: LogOutput

    public init(label: String, level: Logger.Level, style: Style, output: LogOutput = .standardError) {
        self.label = label
        self.logLevel = level
        self.style = style
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        output.write(line(level: event.level, message: "\(event.message)", metadata: effectiveMetadata(event),
                          source: event.source))
    }

    /// The line written for one message, with its line end.
    func line(level: Logger.Level, message: String, metadata: Logger.Metadata, source: String) -> String {
        let details = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        switch style {
        case .journal:
            return "<\(Self.syslogPriority(level))>\(label):\(Self.shown(details)) \(Self.shown(message))\n"
        case .terminal:
            return "\(Self.timestamp()) \(level) \(label):\(Self.shown(details)) [\(source)] \(Self.shown(message))\n"
        }
    }

    /// syslog(3) priorities, which journald reads from the `<N>` prefix: 2 critical … 7 debug.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .critical: return 2
        case .error: return 3
        case .warning: return 4
        case .notice: return 5
        case .info: return 6
        case .debug, .trace: return 7
        }
    }

    /// A message may quote a URL with a password (an engine error names the URL it failed on) and tags:
    /// credentials masked, length bounded (`PublicText`), controls made visible (`InertText`).
    private static func shown(_ text: String) -> String {
        InertText.of(PublicText.from(text, limit: PublicText.maximumURLUTF8Count))
    }

    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        merged.merge(metadataProvider?.get() ?? [:]) { $1 }
        merged.merge(event.metadata ?? [:]) { $1 }
        if let error = event.error { merged["error.message"] = "\(error)" }
        return merged
    }

    /// Local time with its offset, `2026-11-23T21:56:01+0000`.
    static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "?" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Where log lines go. Each line is written with one write(2) call, so lines from several threads never
/// interleave inside a line (journald reads its stream socket line by line).
public final class LogOutput: Sendable {
    public static let standardError = LogOutput(descriptor: STDERR_FILENO)

    private let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    func write(_ line: String) {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }  // stderr closed or full: a log line is not worth blocking for
            bytes = bytes.dropFirst(written)
        }
    }
}
