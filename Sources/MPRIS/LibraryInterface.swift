import ControlAPI
import DBus
import Library
import PlayerCore

/// `org.quaver.Quaver1.Library`: the music library on quaverd's object — search a page at a time, artists and
/// albums, play or add what a query finds, statistics, a rescan, and the scan's progress as properties
/// (signalled with PropertiesChanged through the MPRIS batcher). Arguments arrive checked against the
/// signatures below (the DBus layer refuses others); query text is bound as a value by the Library module.
///
/// With `[library] folders = []` there is no library: every method answers an error saying so.
public final class LibraryInterface {
    public static let name = ControlAPI.libraryInterface

    private let mpris: MPRISService
    private let library: MusicLibrary?
    private var player: Player { mpris.player }

    public init(mpris: MPRISService, library: MusicLibrary?) {
        self.mpris = mpris
        self.library = library
        mpris.batcher.watch(Self.name) { [weak self] in self?.signalledValues ?? [:] }
        library?.onChange = { [weak self] in self?.mpris.batcher.markChanged(Self.name) }
    }

    public var description: InterfaceDescription {
        InterfaceDescription(name: Self.name, methods: methods, properties: properties)
    }

    // MARK: Properties

    private var properties: [InterfaceDescription.Property] {
        Self.signalledTypes.map { name, type in
            InterfaceDescription.Property(name: name, type: type) { [weak self] in
                guard let value = self?.signalledValues[name] else { throw DBusError.failed("the player is shutting down") }
                return value
            }
        }
    }

    private static let signalledTypes: [(String, Signature)] = [
        (LibraryProperty.scanning, "b"), (LibraryProperty.filesToRead, "u"),
        (LibraryProperty.filesRead, "u"), (LibraryProperty.trackCount, "u"),
    ]

    private var signalledValues: [String: DBusValue] {
        let progress = library?.progress ?? LibraryScanner.Progress()
        let tracks = progress.tracks
        return [LibraryProperty.scanning: .boolean(progress.scanning),
                LibraryProperty.filesToRead: .uint32(UInt32(clamping: progress.filesToRead)),
                LibraryProperty.filesRead: .uint32(UInt32(clamping: progress.filesRead)),
                LibraryProperty.trackCount: .uint32(UInt32(clamping: tracks))]
    }

    // MARK: Methods

    private var methods: [InterfaceDescription.Method] {
        typealias Argument = InterfaceDescription.Argument
        let folders = library?.folders ?? []
        return [
            reading("Search", [Argument("query", "s"), Argument("offset", "u"), Argument("limit", "u")],
                    outputs: [Argument("tracks", "aa{sv}"), Argument("total", "u")]) { catalog, args in
                let limit = min(Int(args[2].int64Value ?? 0), ControlAPI.librarySearchPageLimit)
                let page = try catalog.search(SearchQuery(args[0].stringValue ?? ""), offset: Int(args[1].int64Value ?? 0),
                                              limit: limit)
                return [.array(element: "a{sv}", page.tracks.map(LibraryMetadata.value)), .uint32(UInt32(clamping: page.total))]
            },
            reading("Artists", [Argument("query", "s")], outputs: [Argument("artists", "a(su)")]) { catalog, args in
                let artists = try catalog.artists(SearchQuery(args[0].stringValue ?? ""))
                return [.array(element: "(su)", artists.map { .structure([.string($0.name), .uint32(UInt32(clamping: $0.tracks))]) })]
            },
            reading("Albums", [Argument("query", "s")], outputs: [Argument("albums", "a(ssiu)")]) { catalog, args in
                let albums = try catalog.albums(SearchQuery(args[0].stringValue ?? ""))
                return [.array(element: "(ssiu)", albums.map { album in
                    .structure([.string(album.artist), .string(album.title), .int32(Int32(clamping: album.year)),
                                .uint32(UInt32(clamping: album.tracks))])
                })]
            },
            reading("Statistics", outputs: [Argument("statistics", "a{sv}")]) { catalog, _ in
                [LibraryMetadata.statistics(try catalog.statistics(), folders: folders)]
            },
            InterfaceDescription.Method(name: "Rescan") { [weak self] _ in
                _ = try self?.enabledLibrary()
                self?.library?.rescan()
                return []
            },
            queueingMethod("PlayQuery", [Argument("query", "s")]) { this, args, entries, reply in
                this.queue(entries, at: .end, replacing: true, play: true, reply)
            },
            queueingMethod("AddQuery", [Argument("query", "s"), Argument("position", "s"), Argument("play", "b")]) {
                this, args, entries, reply in
                let position = try this.player.queuePosition(named: args[1].stringValue ?? "")
                this.queue(entries, at: position, replacing: false, play: args[2].boolValue ?? false, reply)
            },
        ]
    }

    /// A method answered from the index (`indexReadingMethod`); an error when there is no library.
    private func reading<Result>(_ name: String, _ inputs: [InterfaceDescription.Argument] = [],
                                 outputs: [InterfaceDescription.Argument] = [],
                                 _ query: @escaping (LibraryCatalog, [DBusValue]) throws -> Result,
                                 answer: @escaping (LibraryInterface, Result, [DBusValue], PendingReply) throws -> Void)
        -> InterfaceDescription.Method {
        indexReadingMethod(name, inputs, outputs: outputs, owner: self, library: { try $0.enabledLibrary() }, query: query,
                           answer: answer)
    }

    /// A method whose reply is what the query gives.
    private func reading(_ name: String, _ inputs: [InterfaceDescription.Argument] = [],
                         outputs: [InterfaceDescription.Argument] = [],
                         _ query: @escaping (LibraryCatalog, [DBusValue]) throws -> [DBusValue]) -> InterfaceDescription.Method {
        reading(name, inputs, outputs: outputs, query) { _, values, _, reply in reply.finish(values) }
    }

    /// PlayQuery and AddQuery: the query's tracks with their tags (none is an error, and the queue is unchanged),
    /// read on the library's thread, then queued over as many loop turns as a long list takes (QueueEditInSlices);
    /// the answer is how many were queued.
    private func queueingMethod(_ name: String, _ inputs: [InterfaceDescription.Argument],
                                _ body: @escaping (LibraryInterface, [DBusValue], [QueueEntry], PendingReply) throws -> Void)
        -> InterfaceDescription.Method {
        reading(name, inputs, outputs: [InterfaceDescription.Argument("queued", "u")]) { catalog, args in
            try catalog.tracks(SearchQuery(args[0].stringValue ?? "")).map(QueueEntry.init)
        } answer: { this, entries, args, reply in
            guard !entries.isEmpty else {
                throw DBusError.invalidArgs("nothing in the library matches \"\(args[0].stringValue ?? "")\"; the queue is unchanged")
            }
            try body(this, args, entries, reply)
        }
    }

    private func enabledLibrary() throws -> MusicLibrary {
        guard let library else { throw DBusError.failed("the music library is off ([library] folders = [] in config.toml)") }
        return library
    }

    private func queue(_ entries: [QueueEntry], at position: QueuePosition, replacing: Bool, play: Bool, _ reply: PendingReply) {
        QueueEditInSlices(mpris, entries, at: position, replacing: replacing) { [weak self] ids in
            if play, let first = ids.first, let player = self?.player, player.index(of: first) != nil {
                // A replaced queue starts at its first track already (`Player.replace`).
                if player.currentTrackID != first { player.goTo(first) }
                player.play()
            }
            reply.finish([.uint32(UInt32(clamping: ids.count))])
        }.start()
    }
}
