import SQLite

/// What the index answers, read through the loop's read-only connection: tracks matching a query (a page at a
/// time), their artists and albums, and the figures of the whole library. Every query text is bound as a
/// value (`SearchQuery`); the SQL here is fixed text.
public final class LibraryCatalog {
    private let connection: IndexConnection
    private var database: Database { connection.database }
    /// Each query's statement, compiled at its first use and kept with the connection: the SQL texts are a few
    /// fixed ones (one per method and filter shape), and compiling a search's two statements each time cost 0.13 to
    /// 0.18 ms of its 0.9 to 1.1 ms (CPU time, median, 100 000 tracks; SQLite 3.40).
    private var statements: [String: Statement] = [:]

    public init(_ connection: IndexConnection) { self.connection = connection }

    /// One page of the tracks matching `query` in album order, and how many match in all.
    ///
    /// The page's ids are found first, then only their rows are read. Two ways to find them, chosen by the
    /// count: many matches are found by walking the album-order index until the page is full (2 500 of
    /// 100 000: 1–4 ms, where sorting them took 24 ms: each match's row is read for its sort keys); few are
    /// read and sorted (11 of 100 000: under 1 ms, where walking the index took 8–17 ms). Measured in sqlite3.
    public func search(_ query: SearchQuery, offset: Int, limit: Int) throws -> (tracks: [LibraryTrack], total: Int) {
        let filter = Self.filter(query)
        let total = try count(query, filter)
        let access = total >= Self.indexWalkThreshold ? "INDEXED BY tracks_in_album_order" : "NOT INDEXED"
        let page = try rows("WITH page AS (SELECT id FROM tracks \(access) WHERE \(filter.sql) "
                                      + "ORDER BY \(Self.albumOrder) LIMIT ? OFFSET ?) "
                                      + "SELECT \(Self.trackColumns) FROM page JOIN tracks ON tracks.id = page.id "
                                      + "ORDER BY \(Self.albumOrder)",
                                      filter.values + [.integer(Int64(max(0, limit))), .integer(Int64(max(0, offset)))])
        return (page.map(Self.track), total)
    }

    static let indexWalkThreshold = 1000

    /// How many tracks match: words alone are counted in the full-text index, without reading the tracks.
    private func count(_ query: SearchQuery, _ filter: (sql: String, values: [SQLiteValue])) throws -> Int {
        let counted: [Row]
        if let match = query.textMatch, query.years == nil {
            counted = try rows("SELECT count(*) FROM tracks_text WHERE tracks_text MATCH ?1", [.text(match)])
        } else {
            counted = try rows("SELECT count(*) FROM tracks WHERE \(filter.sql)", filter.values)
        }
        return Int(counted.first?.integer(0) ?? 0)
    }

    /// Every track matching `query`, in album order, missing ones left out: what `quaver play QUERY` queues, with
    /// the tags the queue shows at once.
    public func tracks(_ query: SearchQuery) throws -> [LibraryTrack] {
        let filter = Self.filter(query)
        return try rows("SELECT \(Self.trackColumns) FROM tracks WHERE \(filter.sql) AND missing = 0 "
                                  + "ORDER BY \(Self.albumOrder)", filter.values).map(Self.track)
    }

    /// The URIs of every track matching `query`, in album order, missing ones left out.
    public func uris(_ query: SearchQuery) throws -> [String] {
        let filter = Self.filter(query)
        return try rows("SELECT uri FROM tracks WHERE \(filter.sql) AND missing = 0 ORDER BY \(Self.albumOrder)",
                                  filter.values).compactMap { $0.text(0) }
    }

    /// The track at `uri`, if indexed.
    public func track(uri: String) throws -> LibraryTrack? {
        try rows("SELECT \(Self.trackColumns) FROM tracks WHERE uri = ?1", [.text(uri)]).first.map(Self.track)
    }

    /// The `limit` tracks whose files changed last (new files come with their copy's time), newest first.
    public func recentlyChanged(limit: Int) throws -> [LibraryTrack] {
        try rows("SELECT \(Self.trackColumns) FROM tracks WHERE missing = 0 ORDER BY modified DESC, uri LIMIT ?",
                           [.integer(Int64(max(0, limit)))]).map(Self.track)
    }

    /// One album's tracks (as `albums` names it), or one artist's (as `artists` names them) when `album` is nil,
    /// in album order; missing tracks left out.
    public func tracks(artist: String, album: String?) throws -> [LibraryTrack] {
        let albumClause = album == nil ? "" : " AND album = ?2 COLLATE NOCASE"
        return try rows("SELECT \(Self.trackColumns) FROM tracks WHERE sort_artist = ?1\(albumClause) "
                                  + "AND missing = 0 ORDER BY \(Self.albumOrder)", [.text(artist)] + (album.map { [.text($0)] } ?? []))
            .map(Self.track)
    }

    /// Artists (album artists, or the track's first artist) of the matching tracks, with their track counts.
    public func artists(_ query: SearchQuery) throws -> [(name: String, tracks: Int)] {
        let filter = Self.filter(query)
        return try rows("SELECT sort_artist, count(*) FROM tracks WHERE \(filter.sql) "
                                  + "GROUP BY sort_artist ORDER BY sort_artist", filter.values).map { row in
            (row.text(0) ?? "", Int(row.integer(1) ?? 0))
        }
    }

    /// Albums of the matching tracks (artist, title, year, track count), in album order.
    public func albums(_ query: SearchQuery) throws -> [LibraryAlbum] {
        let filter = Self.filter(query)
        return try rows("SELECT sort_artist, album, max(year), count(*) FROM tracks "
                                  + "WHERE \(filter.sql) AND album != '' GROUP BY sort_artist, album COLLATE NOCASE "
                                  + "ORDER BY sort_artist, max(year), album COLLATE NOCASE", filter.values).map { row in
            LibraryAlbum(artist: row.text(0) ?? "", title: row.text(1) ?? "", year: Int(row.integer(2) ?? 0),
                         tracks: Int(row.integer(3) ?? 0))
        }
    }

    /// Counts and sizes of the whole index, and when the last full scan ended.
    public func statistics() throws -> LibraryStatistics {
        let row = try rows("""
            SELECT count(*), coalesce(sum(size), 0), coalesce(sum(length_ms), 0), count(DISTINCT sort_artist),
                   count(DISTINCT sort_artist || char(31) || album), coalesce(sum(missing), 0) FROM tracks
            """).first
        let lastScan = try rows("SELECT value FROM facts WHERE name = 'last-scan-end'").first?.integer(0)
        let number = { (column: Int) in Int(row?.integer(column) ?? 0) }
        return LibraryStatistics(tracks: number(0), bytes: Int64(number(1)), milliseconds: Int64(number(2)),
                                 artists: number(3), albums: number(4), missing: number(5), lastScanEnd: lastScan ?? 0)
    }

    // MARK: SQL

    /// Every row `sql` answers with `values` bound, through its kept statement (run to its end, so it holds no
    /// read transaction open after).
    private func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [Row] {
        if let statement = statements[sql] { return try statement.rows(values) }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return try statement.rows(values)
    }

    /// The WHERE clause for `query` and the values it binds.
    static func filter(_ query: SearchQuery) -> (sql: String, values: [SQLiteValue]) {
        var clauses = ["1"], values: [SQLiteValue] = []
        if let match = query.textMatch {
            values.append(.text(match))
            clauses.append("id IN (SELECT rowid FROM tracks_text WHERE tracks_text MATCH ?\(values.count))")
        }
        if let years = query.years {
            values += [.integer(Int64(years.lowerBound)), .integer(Int64(years.upperBound))]
            clauses.append("year BETWEEN ?\(values.count - 1) AND ?\(values.count)")
        }
        return (clauses.joined(separator: " AND "), values)
    }

    static let albumOrder = "sort_artist, year, album COLLATE NOCASE, disc, track, path"

    static let trackColumns = """
        uri, path, size, modified, title, artists, album, album_artist, composer, genre, track, disc, year, length_ms,
        track_gain, track_peak, album_gain, album_peak, mb_recording, mb_album, mb_artist, mb_album_artist, has_cover
        """

    static func track(_ row: Row) -> LibraryTrack {
        let text = { (column: Int) in row.text(column) ?? "" }
        let number = { (column: Int) in Int(row.integer(column) ?? 0) }
        var track = LibraryTrack(uri: text(0), path: text(1), size: row.integer(2) ?? 0, modified: row.integer(3) ?? 0)
        track.title = text(4)
        track.artists = text(5).split(separator: Character(IndexConnection.artistSeparator)).map(String.init)
        track.album = text(6)
        track.albumArtist = text(7)
        track.composer = text(8)
        track.genre = text(9)
        track.trackNumber = number(10)
        track.discNumber = number(11)
        track.year = number(12)
        track.lengthMilliseconds = number(13)
        track.replayGain.trackGain = row.real(14)
        track.replayGain.trackPeak = row.real(15)
        track.replayGain.albumGain = row.real(16)
        track.replayGain.albumPeak = row.real(17)
        track.musicBrainz.recording = text(18)
        track.musicBrainz.album = text(19)
        track.musicBrainz.artist = text(20)
        track.musicBrainz.albumArtist = text(21)
        track.hasCover = number(22) != 0
        return track
    }
}

public struct LibraryAlbum: Equatable, Sendable {
    public let artist: String
    public let title: String
    public let year: Int
    public let tracks: Int
}

public struct LibraryStatistics: Equatable, Sendable {
    public var tracks = 0
    public var bytes: Int64 = 0
    public var milliseconds: Int64 = 0
    public var artists = 0
    public var albums = 0
    /// Tracks of folders that are not there now (a disk unmounted).
    public var missing = 0
    /// When the last full scan ended, seconds since 1970; 0 before the first.
    public var lastScanEnd: Int64 = 0
}
