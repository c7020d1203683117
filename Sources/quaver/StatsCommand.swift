import ArgumentParser
import ControlAPI
import DBus
import QuaverClient
import TerminalText

/// `quaver stats`: how the current track reaches the speakers (org.quaver.Quaver1.GetTrackStatistics).
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how the current track is delivered: bytes fetched, stalls, retries, bitrate, decoder.",
        discussion: """
            bytes fetched: received from the network for this play; on disk: the part of the file present \
            (the cache for a remote file); stalls: times the sound stopped to wait for data after the track \
            started; retries: failed requests tried again; bitrate: the file's length over its playing time; \
            decoder: the GStreamer element decoding it. --json prints one object (unknown values are null).
            """)

    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON (fields in docs/scripting.md).") var json = false

    func run() throws {
        let figures = TrackStatistics(try options.connect().trackStatistics())
        if json { return Terminal.line(figures.json.text) }
        guard let lines = figures.lines else { return Terminal.line("no track is loaded") }
        lines.forEach(Terminal.line)
    }
}

/// GetTrackStatistics' answer, read once.
struct TrackStatistics {
    let bytesFetched, bytesPresent, bytesTotal, retries, stalls, bitrate: Int64?
    let decoder: String?

    init(_ values: [String: DBusValue]) {
        bytesFetched = values[StatisticsKey.bytesFetched]?.int64Value
        bytesPresent = values[StatisticsKey.bytesPresent]?.int64Value
        bytesTotal = values[StatisticsKey.bytesTotal]?.int64Value
        retries = values[StatisticsKey.retries]?.int64Value
        stalls = values[StatisticsKey.stalls]?.int64Value
        bitrate = values[StatisticsKey.bitrate]?.int64Value
        decoder = values[StatisticsKey.decoder]?.stringValue
    }

    var json: JSONValue {
        .object([("bytes_fetched", .optional(bytesFetched)), ("bytes_present", .optional(bytesPresent)),
                 ("bytes_total", .optional(bytesTotal)), ("stalls", .optional(stalls)), ("retries", .optional(retries)),
                 ("bitrate", .optional(bitrate)), ("decoder", .optional(decoder))])
    }

    /// One `name  value` line per figure; nil when nothing is loaded (the daemon sent no figures).
    var lines: [String]? {
        guard let bytesFetched else { return nil }
        let unknown = "unknown"
        return ["bytes fetched  \(bytesFetched)",
                "on disk        \(bytesPresent.map { "\($0)" } ?? unknown)" + (bytesTotal.map { " of \($0)" } ?? ""),
                "stalls         \(stalls ?? 0)",
                "retries        \(retries ?? 0)",
                "bitrate        \(bitrate.map { "\(($0 + 500) / 1000) kbit/s" } ?? unknown)",
                "decoder        \(decoder ?? unknown)"]
    }
}
