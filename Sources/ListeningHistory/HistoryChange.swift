import PlayerCore

/// One change of the listening history, as the history file takes it (`HistoryDatabase.apply`) and as the journal
/// keeps it while music plays (`HistoryJournal`): one line of text that checks itself.
public enum HistoryChange: Equatable, Sendable {
    /// Tracks queued for the first time get this date; those known already keep theirs.
    case added([String], at: Int64)
    case listen(Listen)
    case skip(String, at: Int64)
    /// 0…5 stars, or nil to forget the rating.
    case rating(String, stars: Int?, at: Int64)
    /// A saved playlist (by id) was played.
    case playlistPlayed(String, at: Int64)

    /// What the log calls it.
    var what: String {
        switch self {
        case .added: "queued tracks"
        case .listen: "a listen"
        case .skip: "a skip"
        case .rating: "a rating"
        case .playlistPlayed: "a playlist played"
        }
    }

    /// The track whose history this changes and whose first-added date the loop learns back: nil for a queueing (the
    /// loop keeps nothing of tracks only queued) and a playlist.
    var changedTrack: String? {
        switch self {
        case .listen(let listen): listen.uri
        case .skip(let uri, _), .rating(let uri, _, _): uri
        case .added, .playlistPlayed: nil
        }
    }
}

/// The journal's line format: a checksum of the rest (FNV-1a, 16 hexadecimal digits), a tab, then the fields joined
/// by tabs, the kind first. Text is escaped (`\\`, `\t`, `\n`, `\r`) so that a field never holds a separator, and an
/// absent value is `\N`, which escaping never makes. A line cut short by a kill fails its checksum.
enum JournalLine {
    /// The first line of a journal: the id its fold is remembered by (`HistoryDatabase.fold`).
    static func header(_ id: String) -> String { line(["journal", escape(id)]) }

    static func encode(_ change: HistoryChange) -> String {
        switch change {
        case .added(let uris, let time): line(["added", String(time)] + uris.map(escape))
        case .listen(let listen): line(["listen", String(listen.listenedAt), escape(listen.uri), optional(listen.artist),
                                        optional(listen.title), optional(listen.album),
                                        optional(listen.durationSeconds.map(String.init)),
                                        optional(listen.trackNumber.map(String.init)), escape(listen.musicBrainz.recording),
                                        escape(listen.musicBrainz.release), escape(listen.musicBrainz.artist)])
        case .skip(let uri, let time): line(["skip", String(time), escape(uri)])
        case .rating(let uri, let stars, let time): line(["rating", String(time), escape(uri), optional(stars.map(String.init))])
        case .playlistPlayed(let id, let time): line(["playlist", String(time), escape(id)])
        }
    }

    /// The fields of a line whose checksum holds (without its newline), unescaped; nil for a line cut short or changed.
    static func fields(_ line: Substring) -> [String?]? {
        guard let tab = line.firstIndex(of: "\t") else { return nil }
        let body = line[line.index(after: tab)...]
        guard line[..<tab] == TextDigest.fnv1a(body) else { return nil }
        return body.split(separator: "\t", omittingEmptySubsequences: false).map(unescape)
    }

    /// The change a header-less line's fields spell; nil for a kind or a field this build does not know, or a value
    /// the file refuses (a rating outside 0…5: its fold would fail, and every later one with it).
    static func change(_ fields: [String?]) -> HistoryChange? {
        guard fields.count >= 3, let kind = fields[0], let time = fields[1].flatMap({ Int64($0) }) else { return nil }
        switch (kind, fields.count) {
        case ("added", _): return .added(fields.dropFirst(2).compactMap { $0 }, at: time)
        case ("skip", 3): return fields[2].map { .skip($0, at: time) }
        case ("rating", 4): return rating(fields, at: time)
        case ("playlist", 3): return fields[2].map { .playlistPlayed($0, at: time) }
        case ("listen", 11): return listen(fields, at: time).map(HistoryChange.listen)
        default: return nil
        }
    }

    private static func rating(_ fields: [String?], at time: Int64) -> HistoryChange? {
        guard let uri = fields[2] else { return nil }
        guard let text = fields[3] else { return .rating(uri, stars: nil, at: time) }
        guard let stars = Int(text), (0...5).contains(stars) else { return nil }
        return .rating(uri, stars: stars, at: time)
    }

    private static func listen(_ fields: [String?], at time: Int64) -> Listen? {
        guard let uri = fields[2] else { return nil }
        var listen = Listen(listenedAt: time, uri: uri, artist: fields[3], title: fields[4], album: fields[5],
                            durationSeconds: fields[6].flatMap { Int($0) }, trackNumber: fields[7].flatMap { Int($0) })
        listen.musicBrainz = MusicBrainzTags(recording: fields[8] ?? "", release: fields[9] ?? "", artist: fields[10] ?? "")
        return listen
    }

    private static let absent = "\\N"

    private static func line(_ fields: [String]) -> String {
        let body = fields.joined(separator: "\t")
        return TextDigest.fnv1a(body) + "\t" + body + "\n"
    }

    private static func optional(_ text: String?) -> String { text.map(escape) ?? absent }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    private static func unescape(_ field: Substring) -> String? {
        guard field != absent else { return nil }
        var text = "", escaping = false
        for character in field.unicodeScalars {
            if escaping {
                text += character == "t" ? "\t" : character == "n" ? "\n" : character == "r" ? "\r" : String(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                text.unicodeScalars.append(character)
            }
        }
        return text
    }

}
