import ArgumentParser
import ControlAPI
import DBus
import QuaverClient

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Queue files, folders (recursively, in natural order), .m3u/.m3u8/.pls playlists or http(s) URLs; "
            + "words that name none of them are a library query (`quaver add nina simone`).")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Queue after the current track instead of at the end.") var next = false
    @Flag(help: "Queue at the start.") var start = false
    @Flag(help: "Start playing the first added track.") var play = false
    @Option(help: "Queue a saved playlist (see `quaver playlists`) instead of items.") var playlist: String?
    @Argument(help: "Files, folders, playlists or URLs, or a library query.") var items: [String] = []

    func validate() throws {
        if next && start { throw ValidationError("--next and --start cannot be combined") }
        if items.isEmpty == (playlist == nil) { throw ValidationError("give either items or --playlist NAME") }
    }

    func run() throws {
        let position = next ? "next" : start ? "start" : "end"
        if let playlist {
            let count = try options.connect().addPlaylist(playlist, at: position, play: play)
            return Terminal.line("queued \(count) track\(count == 1 ? "" : "s")")
        }
        if let query = LibraryQuery.text(of: items) {
            return LibraryQuery.queued(try options.connect().addQuery(query, at: position, play: play))
        }
        let uris = try MediaArguments.uris(for: items)
        let client = try options.connect()
        // A folder's files were not named one by one: the daemon leaves out those it cannot queue and
        // says which. A list of files and playlists is all-or-nothing, as the user named exactly those.
        let reply = MediaArguments.namesAFolder(items)
            ? try client.addFolderTracks(uris, at: position, play: play) : try client.addTracks(uris, at: position, play: play)
        for refused in reply.dropFirst().first?.arrayValue ?? [] {
            let fields = refused.arrayValue ?? []
            Terminal.warn("skipped \(fields.first?.stringValue ?? "?"): \(fields.last?.stringValue ?? "?")")
        }
        let count = reply.first?.arrayValue?.count ?? 0
        Terminal.line("queued \(count) track\(count == 1 ? "" : "s")")
    }
}

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play; with items, replace the queue with them and play; words that name no file, folder, "
            + "playlist or URL are a library query (`quaver play kind of blue`).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "Files, folders, playlists or URLs to play instead of the queue, or a library query.")
    var items: [String] = []

    func run() throws {
        if items.isEmpty {
            try options.connect().play()
        } else if let query = LibraryQuery.text(of: items) {
            LibraryQuery.queued(try options.connect().playQuery(query))
        } else {
            let uris = try MediaArguments.uris(for: items)
            try options.connect().replaceQueue(uris, play: true)
        }
    }
}

struct QueueList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "List the queue; the current track is marked with ▶.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Show track ids instead of indexes.") var ids = false
    @Flag(help: "Print JSON: {\"current\": index or null, \"tracks\": [...]} (fields in docs/scripting.md).")
    var json = false

    func run() throws {
        let queue = try QueueSnapshot(try options.connect())
        if json { return Terminal.line(queue.json.text) }
        if queue.entries.isEmpty { return Terminal.line("the queue is empty") }
        let width = String(queue.entries.count).count
        for (index, entry) in queue.entries.enumerated() {
            let marker = entry.id == queue.current ? "▶" : " "
            let number = String(index + 1)
            let name = ids ? entry.id.rawValue : String(repeating: " ", count: width - number.count) + number
            let length = entry.metadata.length.map { "  " + TimeText.format(microseconds: $0) } ?? ""
            Terminal.line("\(marker) \(name)  \(entry.metadata.label)\(length)")
        }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove entries (1-based indexes or track ids).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "Indexes (as `quaver queue` shows them) or track ids.") var items: [String]

    func run() throws {
        let client = try options.connect()
        let queue = try QueueSnapshot(client)
        let ids = try items.map(queue.id(of:))
        try client.removeTracks(ids)
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Move an entry so that it ends up at a position.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The entry: index or track id.") var item: String
    @Argument(help: "Its new 1-based position.") var position: Int

    func run() throws {
        let client = try options.connect()
        let queue = try QueueSnapshot(client)
        let id = try queue.id(of: item)
        guard (1...queue.entries.count).contains(position) else {
            throw CLIError("position \(position) is outside 1…\(queue.entries.count)")
        }
        // MoveTrack names the entry to follow, counted in the queue without the moved one.
        let others = queue.entries.map(\.id).filter { $0 != id }
        let after = position == 1 ? QuaverClient.noTrack : others[position - 2]
        try client.moveTrack(id, after: after)
    }
}

struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Empty the queue and stop.")
    @OptionGroup var options: ClientOptions

    func run() throws { try options.connect().clearQueue() }
}

struct Jump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make an entry current (index or track id), keeping playing, paused or stopped.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "Index (as `quaver queue` shows) or track id.") var item: String

    func run() throws {
        let client = try options.connect()
        let id = try QueueSnapshot(client).id(of: item)
        try client.goTo(track: id)
    }
}
