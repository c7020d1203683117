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
            reading("GetInitialResultSet", [Argument("terms", "as")], outputs: [Argument("results", "as")]) { catalog, args in
                [.stringArray(try Self.results(args[0].stringArrayValue ?? [], catalog))]
            } answer: { _, values, reply in reply.finish(values) },
            reading("GetSubsearchResultSet", [Argument("previous_results", "as"), Argument("terms", "as")],
                    outputs: [Argument("results", "as")]) { catalog, args in
                [.stringArray(try Self.results(args[1].stringArrayValue ?? [], catalog))]
            } answer: { _, values, reply in reply.finish(values) },
            reading("GetResultMetas", [Argument("identifiers", "as")], outputs: [Argument("metas", "aa{sv}")]) { catalog, args in
                (args[0].stringArrayValue ?? []).prefix(100).compactMap { try? ResultMeta(ResultID($0), catalog) }
            } answer: { this, metas, reply in
                reply.finish([.array(element: "a{sv}", metas.map { $0.value(artwork: this.mpris.configuration.artwork) })])
            },
            reading("ActivateResult", [Argument("identifier", "s"), Argument("terms", "as"), Argument("timestamp", "u")]) {
                catalog, args in
                try Self.tracks(of: ResultID(args[0].stringValue ?? ""), catalog)
            } answer: { this, tracks, reply in
                try this.play(tracks, reply)
            },
            reading("LaunchSearch", [Argument("terms", "as"), Argument("timestamp", "u")]) { catalog, args in
                try catalog.tracks(SearchQuery((args[0].stringArrayValue ?? []).joined(separator: " ")))
            } answer: { this, tracks, reply in
                try this.play(tracks, reply)
            },
        ]
    }

    /// A method answered from the index (`indexReadingMethod`): GNOME Shell asks as the user types, and one letter
    /// finds most of a large library.
    private func reading<Result>(_ name: String, _ inputs: [InterfaceDescription.Argument],
                                 outputs: [InterfaceDescription.Argument] = [],
                                 _ query: @escaping (LibraryCatalog, [DBusValue]) throws -> Result,
                                 answer: @escaping (ShellSearchProvider, Result, PendingReply) throws -> Void)
        -> InterfaceDescription.Method {
        indexReadingMethod(name, inputs, outputs: outputs, owner: self, library: { $0.library }, query: query) {
            this, result, _, reply in try answer(this, result, reply)
        }
    }

    /// Albums the terms find, artists whose name has the terms, tracks whose title has them.
    private static func results(_ terms: [String], _ catalog: LibraryCatalog) throws -> [String] {
        let words = terms.prefix(20)
        guard !words.isEmpty else { return [] }
        let albums = try catalog.albums(SearchQuery(words.joined(separator: " "))).prefix(albumResults)
        let artists = try catalog.artists(SearchQuery(words.map { "artist:\"\($0)\"" }.joined(separator: " ")))
            .prefix(artistResults)
        let tracks = try catalog.search(SearchQuery(words.map { "title:\"\($0)\"" }.joined(separator: " ")), offset: 0,
                                        limit: trackResults).tracks
        return albums.map { ResultID.album(artist: $0.artist, title: $0.title).text }
            + artists.map { ResultID.artist($0.name).text } + tracks.map { ResultID.track($0.uri).text }
    }

    private static func tracks(of id: ResultID?, _ catalog: LibraryCatalog) throws -> [LibraryTrack] {
        switch id {
        case .album(let artist, let title)?: return try catalog.tracks(artist: artist, album: title)
        case .artist(let name)?: return try catalog.tracks(artist: name, album: nil)
        case .track(let uri)?: return try catalog.track(uri: uri).map { [$0] } ?? []
        case nil: return []
        }
    }

    /// Replaces the queue with `tracks` (their tags from the index) and plays; nothing found changes nothing.
    private func play(_ tracks: [LibraryTrack], _ reply: PendingReply) throws {
        guard !tracks.isEmpty else { throw DBusError.invalidArgs("nothing in the library matches; the queue is unchanged") }
        QueueEditInSlices(mpris, tracks.map(QueueEntry.init), at: .end, replacing: true) { [weak self] _ in
            self?.mpris.player.play()
            reply.finish([])
        }.start()
    }
}

/// One result as GNOME Shell shows it, read on the library's thread with its embedded cover (TagLib reads the
/// file); the cover is written to the art cache on the loop (`value`).
struct ResultMeta {
    let id: String
    let name: String
    let description: String
    /// The track whose cover stands for the result, and the icon's name when there is none.
    let coverTrack: String?
    let fallbackIcon: String
    let embedded: CoverImage?

    init?(_ id: ResultID?, _ catalog: LibraryCatalog) throws {
        guard let id else { return nil }
        self.id = id.text
        switch id {
        case .album(let artist, let title):
            let tracks = try catalog.tracks(artist: artist, album: title)
            guard let first = tracks.first else { return nil }
            (name, description, coverTrack, fallbackIcon) = (title, "Album · \(artist) · \(tracks.count) tracks", first.uri,
                                                             "media-optical")
        case .artist(let artist):
            let count = try catalog.tracks(artist: artist, album: nil).count
            guard count > 0 else { return nil }
            (name, description, coverTrack, fallbackIcon) = (artist, "Artist · \(count) tracks", nil, "avatar-default")
        case .track(let uri):
            guard let track = try catalog.track(uri: uri) else { return nil }
            let by = ([track.artists.joined(separator: ", "), track.album].filter { !$0.isEmpty }).joined(separator: " · ")
            (name, description, coverTrack, fallbackIcon) = (track.displayTitle, by, uri, "audio-x-generic")
        }
        embedded = coverTrack.flatMap { uri in
            MusicLibrary.embeddedCover(of: uri, maximumByteCount: CoverImage.maximumByteCount)
                .map { CoverImage(data: $0.data, mimeType: $0.mimeType) }
        }
    }

    /// The `file://` URL of the cover, as the media card gets it (ArtworkCache): the embedded one, written to the
    /// art cache, else a picture beside the file.
    func value(artwork: ArtworkCache) -> DBusValue {
        let icon = coverTrack.flatMap { artwork.artURL(trackURI: $0, embedded: embedded) } ?? fallbackIcon
        return .variantDictionary(["id": .string(id), "name": .string(name), "description": .string(description),
                                   "gicon": .string(icon)])
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
