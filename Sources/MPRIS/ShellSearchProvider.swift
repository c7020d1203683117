import ControlAPI
import DBus
import FoundationEssentials
import Library
import PlayerCore

/// `org.gnome.Shell.SearchProvider2` at `/org/quaver/SearchProvider`: what GNOME Shell's overview shows of the
/// music library while the user types (`share/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini`
/// names it). Albums come first, then artists, then tracks whose title matches; activating one replaces the
/// queue with it and plays; "launch search" plays everything the terms find, as `quaver play` does.
///
/// Result ids are ours and come back from the shell (or anyone on the bus): `album␟artist␟title`,
/// `artist␟name`, `track␟uri` (␟ is U+001F). An id of another form names nothing: no meta, no action.
public final class ShellSearchProvider {
    static let albumResults = 5, artistResults = 3, trackResults = 8

    private let mpris: MPRISService
    private let library: MusicLibrary

    public init(mpris: MPRISService, library: MusicLibrary) {
        self.mpris = mpris
        self.library = library
    }

    public var exportedObject: ExportedObject {
        ExportedObject(path: ObjectPath(stringLiteral: ControlAPI.searchProviderPath), interfaces: [
            InterfaceDescription(name: ControlAPI.searchProviderInterface, methods: methods),
        ])
    }

    private var methods: [InterfaceDescription.Method] {
        typealias Argument = InterfaceDescription.Argument
        return [
            method("GetInitialResultSet", [Argument("terms", "as")], outputs: [Argument("results", "as")]) { this, args in
                [.stringArray(try this.results(args[0].stringArrayValue ?? []))]
            },
            method("GetSubsearchResultSet", [Argument("previous_results", "as"), Argument("terms", "as")],
                   outputs: [Argument("results", "as")]) { this, args in
                [.stringArray(try this.results(args[1].stringArrayValue ?? []))]
            },
            method("GetResultMetas", [Argument("identifiers", "as")], outputs: [Argument("metas", "aa{sv}")]) { this, args in
                let catalog = try this.library.catalog()
                let metas = (args[0].stringArrayValue ?? []).prefix(100).compactMap { try? this.meta(ResultID($0), catalog) }
                return [.array(element: "a{sv}", metas)]
            },
            method("ActivateResult", [Argument("identifier", "s"), Argument("terms", "as"), Argument("timestamp", "u")]) {
                this, args in
                try this.play(try this.tracks(of: ResultID(args[0].stringValue ?? "")))
                return []
            },
            method("LaunchSearch", [Argument("terms", "as"), Argument("timestamp", "u")]) { this, args in
                let query = SearchQuery((args[0].stringArrayValue ?? []).joined(separator: " "))
                try this.play(try this.library.catalog().tracks(query))
                return []
            },
        ]
    }

    private func method(_ name: String, _ inputs: [InterfaceDescription.Argument], outputs: [InterfaceDescription.Argument] = [],
                        _ body: @escaping (ShellSearchProvider, [DBusValue]) throws -> [DBusValue]) -> InterfaceDescription.Method {
        InterfaceDescription.Method(name: name, inputs: inputs, outputs: outputs) { [weak self] call in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return try body(self, call.arguments)
        }
    }

    /// Albums the terms find, artists whose name has the terms, tracks whose title has them.
    private func results(_ terms: [String]) throws -> [String] {
        let words = terms.prefix(20)
        guard !words.isEmpty else { return [] }
        let catalog = try library.catalog()
        let albums = try catalog.albums(SearchQuery(words.joined(separator: " "))).prefix(Self.albumResults)
        let artists = try catalog.artists(SearchQuery(words.map { "artist:\"\($0)\"" }.joined(separator: " ")))
            .prefix(Self.artistResults)
        let tracks = try catalog.search(SearchQuery(words.map { "title:\"\($0)\"" }.joined(separator: " ")), offset: 0,
                                        limit: Self.trackResults).tracks
        return albums.map { ResultID.album(artist: $0.artist, title: $0.title).text }
            + artists.map { ResultID.artist($0.name).text } + tracks.map { ResultID.track($0.uri).text }
    }

    private func meta(_ id: ResultID?, _ catalog: LibraryCatalog) throws -> DBusValue? {
        guard let id else { return nil }
        let entries: [String: DBusValue]
        switch id {
        case .album(let artist, let title):
            let tracks = try catalog.tracks(artist: artist, album: title)
            guard let first = tracks.first else { return nil }
            entries = ["name": .string(title), "description": .string("Album · \(artist) · \(tracks.count) tracks"),
                       "gicon": .string(cover(of: first.uri) ?? "media-optical")]
        case .artist(let name):
            let count = try catalog.tracks(artist: name, album: nil).count
            guard count > 0 else { return nil }
            entries = ["name": .string(name), "description": .string("Artist · \(count) tracks"), "gicon": .string("avatar-default")]
        case .track(let uri):
            guard let track = try catalog.track(uri: uri) else { return nil }
            let by = ([track.artists.joined(separator: ", "), track.album].filter { !$0.isEmpty }).joined(separator: " · ")
            entries = ["name": .string(track.displayTitle), "description": .string(by),
                       "gicon": .string(cover(of: uri) ?? "audio-x-generic")]
        }
        return .variantDictionary(entries.merging(["id": .string(id.text)]) { $1 })
    }

    private func tracks(of id: ResultID?) throws -> [LibraryTrack] {
        let catalog = try library.catalog()
        switch id {
        case .album(let artist, let title)?: return try catalog.tracks(artist: artist, album: title)
        case .artist(let name)?: return try catalog.tracks(artist: name, album: nil)
        case .track(let uri)?: return try catalog.track(uri: uri).map { [$0] } ?? []
        case nil: return []
        }
    }

    /// Replaces the queue with `tracks` (their tags from the index) and plays; nothing found changes nothing.
    private func play(_ tracks: [LibraryTrack]) throws {
        guard !tracks.isEmpty else { throw DBusError.invalidArgs("nothing in the library matches; the queue is unchanged") }
        QueueEditInSlices(mpris, tracks.map(QueueEntry.init), at: .end, replacing: true) { [weak self] _, _ in
            self?.mpris.player.play()
        }.start()
    }

    /// The `file://` URL of the track's cover, as the media card gets it (ArtworkCache): the embedded one,
    /// written to the art cache, else a picture beside the file.
    private func cover(of uri: String) -> String? {
        let embedded = library.embeddedCover(of: uri, maximumByteCount: CoverImage.maximumByteCount)
        return mpris.configuration.artwork.artURL(trackURI: uri, embedded: embedded.map { CoverImage(data: $0.data, mimeType: $0.mimeType) })
    }
}

/// What a result id names.
enum ResultID {
    case album(artist: String, title: String)
    case artist(String)
    case track(String)

    static let separator: Character = "\u{1F}"

    init?(_ text: String) {
        let parts = text.split(separator: Self.separator, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("album", 3): self = .album(artist: parts[1], title: parts[2])
        case ("artist", 2): self = .artist(parts[1])
        case ("track", 2) where parts[1].hasPrefix("file://"): self = .track(parts[1])
        default: return nil
        }
    }

    var text: String {
        let separator = String(Self.separator)
        switch self {
        case .album(let artist, let title): return ["album", artist, title].joined(separator: separator)
        case .artist(let name): return "artist" + separator + name
        case .track(let uri): return "track" + separator + uri
        }
    }
}
