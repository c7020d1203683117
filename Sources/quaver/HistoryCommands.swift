import ArgumentParser
import ControlAPI
import DBus
import FoundationEssentials
import QuaverClient
import TerminalText

struct Rating: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rate the playing track (or an entry) 0 to 5 stars; `--clear` forgets the rating.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Forget the rating instead.") var clear = false
    @Option(help: "The entry (index as `quaver queue` shows it, or track id) instead of the playing track.") var track: String?
    @Argument(help: "Stars, 0 to 5.") var stars: Int?

    func validate() throws {
        if clear == (stars != nil) { throw ValidationError("give either stars (0 to 5) or --clear") }
        if let stars, !(0...5).contains(stars) { throw ValidationError("stars go from 0 to 5, not \(stars)") }
    }

    func run() throws {
        let client = try options.connect()
        let id = try track.map { try QueueSnapshot(client).id(of: $0) } ?? QuaverClient.noTrack
        try client.setRating(track: id, stars: Int32(stars ?? -1))
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the tracks played, most recent first: plays, skips, rating, last played.")

    @OptionGroup var options: ClientOptions
    @Option(help: "At most this many tracks.") var limit = 50
    @Flag(help: "Print JSON: [{\"url\", \"plays\", \"skips\", \"last_played\", \"first_added\", \"rating\"}].")
    var json = false

    func run() throws {
        let rows = try options.connect().history(limit: UInt32(clamping: max(0, limit))).compactMap(HistoryRow.init)
        if json { return Terminal.line(JSONValue.array(rows.map(\.json)).text) }
        if rows.isEmpty { return Terminal.line("nothing played yet") }
        for row in rows { Terminal.line(row.line) }
    }
}

/// One row of GetHistory (`a(suuxxi)`).
struct HistoryRow {
    let url: String, plays: Int64, skips: Int64, lastPlayed: Int64, firstAdded: Int64, rating: Int64

    init?(_ value: DBusValue) {
        guard case .structure(let fields) = value, fields.count == 6, let url = fields[0].stringValue,
              let plays = fields[1].int64Value, let skips = fields[2].int64Value, let last = fields[3].int64Value,
              let first = fields[4].int64Value, let rating = fields[5].int64Value else { return nil }
        (self.url, self.plays, self.skips, lastPlayed, firstAdded, self.rating) = (url, plays, skips, last, first, rating)
    }

    var json: JSONValue {
        .object([("url", .string(url)), ("plays", .integer(plays)), ("skips", .integer(skips)),
                 ("last_played", .integer(lastPlayed)), ("first_added", .integer(firstAdded)),
                 ("rating", rating < 0 ? .null : .integer(rating))])
    }

    /// `2026-11-26 14:30 UTC  3 plays  ★★★★☆  01 Track.flac`
    var line: String {
        let stars = rating < 0 ? "" : "  " + String(repeating: "★", count: Int(rating)) + String(repeating: "☆", count: 5 - Int(rating))
        let name = URL(string: url).map { $0.isFileURL ? $0.lastPathComponent : url } ?? url
        return "\(UTCText.minutes(lastPlayed))  \(plays) play\(plays == 1 ? "" : "s")\(skips > 0 ? ", \(skips) skipped" : "")\(stars)  \(name)"
    }
}

/// A time as `2026-11-26 14:30 UTC`.
enum UTCText {
    static func minutes(_ secondsSince1970: Int64) -> String {
        TimeText.calendar(secondsSince1970, "%Y-%m-%d %H:%M UTC", utc: true)
    }
}
