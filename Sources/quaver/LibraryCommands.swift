import ArgumentParser
import ControlAPI
import DBus
import FoundationEssentials
import QuaverClient
import TerminalText

// The music library's commands: calls to org.quaver.Quaver1.Library (docs/library.md has the query syntax).

/// Words given on the command line as one query: `quaver search kind of blue` searches "kind of blue".
private func queryText(_ words: [String]) -> String { words.joined(separator: " ") }

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search the music library: words (as prefixes), artist:, album:, albumartist:, title:, genre:, "
            + "composer:, file:, year:1970..1979.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON: {\"total\": N, \"tracks\": [...]} (fields in docs/scripting.md).") var json = false
    @Option(help: "At most this many tracks (1 to \(ControlAPI.librarySearchPageLimit)).") var limit = 100
    @Argument(help: "The query; nothing lists the whole library.") var words: [String] = []

    func validate() throws {
        guard (1...ControlAPI.librarySearchPageLimit).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(ControlAPI.librarySearchPageLimit)")
        }
    }

    func run() throws {
        let (maps, total) = try options.connect().search(queryText(words), offset: 0, limit: UInt32(limit))
        if json { return Terminal.line(Self.json(maps, total: total).text) }
        for metadata in maps { Terminal.line(Self.line(metadata)) }
        if total > maps.count { Terminal.line("… \(total - maps.count) more (--limit)") }
        if total == 0 { Terminal.warn("nothing in the library matches \"\(queryText(words))\"") }
    }

    /// `Artist – Title  (Album, 1959)  5:37`.
    static func line(_ metadata: [String: DBusValue]) -> String {
        let track = TrackInfo(metadata)
        let year = metadata[MetadataKey.year]?.int64Value.map { ", \($0)" } ?? ""
        let album = track.album.map { $0.isEmpty ? "" : "  (\($0)\(year))" } ?? ""
        let length = track.length.map { "  " + TimeText.format(microseconds: $0) } ?? ""
        return track.label + album + length
    }

    static func json(_ maps: [[String: DBusValue]], total: Int) -> JSONValue {
        let tracks = maps.map { metadata -> JSONValue in
            let number = { (key: String) in JSONValue.optional(metadata[key]?.int64Value) }
            return .object(TrackInfo.jsonFields(TrackInfo(metadata)) + [
                ("album_artists", .array((metadata[MetadataKey.albumArtist]?.stringArrayValue ?? []).map { .string($0) })),
                ("track_number", number(MetadataKey.trackNumber)), ("disc_number", number(MetadataKey.discNumber)),
                ("year", number(MetadataKey.year)),
            ])
        }
        return .object([("total", .integer(Int64(total))), ("tracks", .array(tracks))])
    }
}

struct Artists: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the library's artists (of the tracks a query finds).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "A query, as `quaver search` takes.") var words: [String] = []

    func run() throws {
        for entry in try options.connect().artists(matching: queryText(words)) {
            guard let fields = entry.arrayValue, fields.count == 2 else { continue }
            Terminal.line("\(fields[0].stringValue ?? "")  (\(fields[1].int64Value ?? 0))")
        }
    }
}

struct Albums: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the library's albums (of the tracks a query finds).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "A query, as `quaver search` takes.") var words: [String] = []

    func run() throws {
        for entry in try options.connect().albums(matching: queryText(words)) {
            guard let fields = entry.arrayValue, fields.count == 4 else { continue }
            let year = (fields[2].int64Value ?? 0) > 0 ? " (\(fields[2].int64Value ?? 0))" : ""
            Terminal.line("\(fields[0].stringValue ?? "") – \(fields[1].stringValue ?? "")\(year)  \(fields[3].int64Value ?? 0) tracks")
        }
    }
}

struct LibraryStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Show the library: folders, counts, size, last scan and the scan under way.")

    @OptionGroup var options: ClientOptions

    func run() throws {
        let client = try options.connect()
        let figures = try client.libraryStatistics().mapValues(\.unwrapped)
        let progress = try client.getAll(ControlAPI.libraryInterface).mapValues(\.unwrapped)
        let number = { (key: String) in figures[key]?.int64Value ?? 0 }
        Terminal.line("folders: \((figures["Folders"]?.stringArrayValue ?? []).joined(separator: ", "))")
        Terminal.line("\(number("Tracks")) tracks, \(number("Albums")) albums, \(number("Artists")) artists, "
                      + "\(Self.size(UInt64(figures["Bytes"]?.int64Value ?? 0))), "
                      + TimeText.format(microseconds: number("Seconds") * 1_000_000))
        if number("Missing") > 0 { Terminal.line("\(number("Missing")) tracks in folders that are not there now") }
        let lastScan = number("LastScan")
        Terminal.line("last scan: " + (lastScan > 0 ? Self.date(lastScan) : "none yet"))
        if progress[LibraryProperty.scanning]?.boolValue == true {
            Terminal.line("scanning: \(progress[LibraryProperty.filesRead]?.int64Value ?? 0) of \(progress[LibraryProperty.filesToRead]?.int64Value ?? 0) files read")
        }
    }

    static func size(_ bytes: UInt64) -> String {
        let (unit, name): (UInt64, String) = bytes >= 1 << 30 ? (1 << 30, "GiB") : (1 << 20, "MiB")
        let tenths = Int((Double(bytes) / Double(unit) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(name)"
    }

    static func date(_ seconds: Int64) -> String {
        TimeText.calendar(seconds, "%Y-%m-%d %H:%M:%S", utc: false)
    }
}

struct Rescan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare the music folders with the library again (changes are picked up live anyway).")

    @OptionGroup var options: ClientOptions

    func run() throws { try options.connect().rescan() }
}

/// `quaver add` and `quaver play` take files, folders, playlists and URLs as before; words that name none of
/// them (no `/`, no such file in the working directory) are a library query instead.
enum LibraryQuery {
    static func text(of items: [String]) -> String? {
        let workingDirectory = FileManager.default.currentDirectoryPath
        // `artist:davis` has the form of a URI too: `scheme://…` and `file:/…` count as URLs, and anything with
        // a `/` as a path (so a missing file is reported as one).
        let nameSomething = items.contains { item in
            item.contains("/") || FileManager.default.fileExists(atPath: workingDirectory + "/" + item)
        }
        return items.isEmpty || nameSomething ? nil : queryText(items)
    }

    static func queued(_ count: Int64) {
        Terminal.line("queued \(count) track\(count == 1 ? "" : "s")")
    }
}
