// ListeningHistory: what was played, how often, what the user liked, and the listens waiting for ListenBrainz, in
// `$XDG_STATE_HOME/quaver/history.db`. An adapter: imports PlayerCore, SQLite, BaseDirectories, EventLoop, swift-log.
import PlayerCore
import SQLite

/// What the history knows of one track (by URI).
public struct TrackHistory: Equatable, Sendable {
    public var playCount = 0
    public var skipCount = 0
    /// Seconds since 1970 when it last counted as listened to; nil: never.
    public var lastPlayed: Int64?
    /// Seconds since 1970 when it was first queued.
    public var firstAdded: Int64
    /// 0…5 stars; nil: not rated.
    public var rating: Int?

    public init(firstAdded: Int64) { self.firstAdded = firstAdded }
}

/// One listen as ListenBrainz takes it: its timestamp (when it started) and URI are its identity.
public struct Listen: Equatable, Sendable {
    public let listenedAt: Int64
    public let uri: String
    public let artist: String?
    public let title: String?
    public let album: String?
    public let durationSeconds: Int?
    public let trackNumber: Int?
    /// MusicBrainz ids, when the file is tagged with them (the library reads them).
    public var musicBrainz = MusicBrainzTags()

    public init(listenedAt: Int64, uri: String, artist: String?, title: String?, album: String?, durationSeconds: Int?,
                trackNumber: Int?) {
        self.listenedAt = listenedAt
        self.uri = uri
        self.artist = artist
        self.title = title
        self.album = album
        self.durationSeconds = durationSeconds
        self.trackNumber = trackNumber
    }
}

/// A track's MusicBrainz ids as tagged; empty when not.
public struct MusicBrainzTags: Equatable, Sendable {
    public var recording = ""
    public var release = ""
    public var artist = ""

    public init(recording: String = "", release: String = "", artist: String = "") {
        self.recording = recording
        self.release = release
        self.artist = artist
    }
}

extension Listen {
    /// A play as ListenBrainz takes it: stamped with when it started; the first artist, the title and the album as
    /// tagged (an untagged file has no title here, only a name to show).
    public init(_ play: ListenCounter.Play) {
        let track = play.track
        self.init(listenedAt: play.startedAt, uri: track.uri, artist: track.tags.artists.first, title: track.tags.title,
                  album: track.tags.album, durationSeconds: track.duration.map { Int($0.components.seconds) },
                  trackNumber: track.tags.trackNumber)
    }
}

/// The history file. Used from one serial queue only (one connection, one thread: see `Database`); changes come in
/// a transaction each (`record`, while nothing plays) or a journal's at a time (`fold`), so a `kill -9` leaves all
/// of them or none.
public final class HistoryDatabase {
    /// `migrations[i]` takes the file from version i to i + 1 (`Database.migrate`).
    static let migrations = [
        """
        CREATE TABLE tracks (
            uri TEXT PRIMARY KEY NOT NULL,
            play_count INTEGER NOT NULL DEFAULT 0,
            skip_count INTEGER NOT NULL DEFAULT 0,
            last_played INTEGER,
            first_added INTEGER NOT NULL,
            rating INTEGER CHECK (rating BETWEEN 0 AND 5)
        ) WITHOUT ROWID;
        CREATE TABLE listens (
            listened_at INTEGER NOT NULL,
            uri TEXT NOT NULL,
            artist TEXT, title TEXT, album TEXT, duration_seconds INTEGER, track_number INTEGER,
            sent INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (listened_at, uri)
        ) WITHOUT ROWID;
        CREATE INDEX listens_waiting ON listens (listened_at) WHERE sent = 0;
        """,
        """
        ALTER TABLE listens ADD COLUMN recording_mbid TEXT;
        ALTER TABLE listens ADD COLUMN release_mbid TEXT;
        ALTER TABLE listens ADD COLUMN artist_mbid TEXT;
        """,
        """
        CREATE TABLE playlist_plays (
            playlist_id TEXT PRIMARY KEY NOT NULL,
            last_played INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
        // The last journal folded in (`fold`): its id and how many of its changes are in.
        """
        CREATE TABLE journal_folded (
            journal TEXT PRIMARY KEY NOT NULL,
            changes INTEGER NOT NULL
        ) WITHOUT ROWID;
        """,
    ]

    private let database: Database
    public var path: String { database.path }

    public init(path: String) throws {
        database = try Database(path: path)
        try database.useWriteAheadLog()
        try database.migrate(Self.migrations)
    }

    /// The history of every track played, skipped or rated, for the loop's copy. A track only ever queued is
    /// left out: it shows nothing (no count, date or rating in Metadata, no row in GetHistory), and a library
    /// queued once would otherwise cost the loop a few hundred bytes per track for as long as the daemon runs.
    public func tracksWithActivity() throws -> [String: TrackHistory] {
        var all: [String: TrackHistory] = [:]
        let statement = try database.prepare("""
            SELECT uri, play_count, skip_count, last_played, first_added, rating FROM tracks
            WHERE play_count > 0 OR skip_count > 0 OR last_played IS NOT NULL OR rating IS NOT NULL
            """)
        while try statement.step() {
            let row = statement.row
            guard let uri = row.text(0) else { continue }
            var history = TrackHistory(firstAdded: row.integer(4) ?? 0)
            history.playCount = Int(row.integer(1) ?? 0)
            history.skipCount = Int(row.integer(2) ?? 0)
            history.lastPlayed = row.integer(3)
            history.rating = row.integer(5).map(Int.init)
            all[uri] = history
        }
        try releaseCache()
        return all
    }

    /// When `uri` was first queued; nil when the file does not know it.
    public func firstAdded(_ uri: String) throws -> Int64? {
        try database.query("SELECT first_added FROM tracks WHERE uri = ?", [.text(uri)]).first?.integer(0)
    }

    /// One change in one transaction.
    public func record(_ change: HistoryChange) throws {
        try database.transaction { try apply(change) }
        try releaseCache()
    }

    /// The changes of `journal` not folded in yet, in one transaction that also notes how far that journal is in,
    /// so a fold cut short after its commit (before the journal was removed) skips them when it runs again.
    /// Returns the tracks changed, whose first-added dates the loop learns back.
    func fold(_ journal: HistoryJournal.Contents) throws -> [String] {
        let changes = try database.transaction {
            let done = try database.query("SELECT changes FROM journal_folded WHERE journal = ?", [.text(journal.id)])
                .first?.integer(0) ?? 0
            let changes = journal.changes.dropFirst(Int(clamping: done))
            for change in changes { try apply(change) }
            try database.run("DELETE FROM journal_folded")
            try database.run("INSERT INTO journal_folded (journal, changes) VALUES (?, ?)",
                             [.text(journal.id), .integer(Int64(journal.changes.count))])
            return changes
        }
        try releaseCache()
        return changes.compactMap(\.changedTrack)
    }

    private func apply(_ change: HistoryChange) throws {
        switch change {
        case .added(let uris, let time):
            let insert = try database.prepare("INSERT OR IGNORE INTO tracks (uri, first_added) VALUES (?, ?)")
            for uri in uris { try insert.run([.text(uri), .integer(time)]) }
        case .listen(let listen):
            try apply(listen)
        case .skip(let uri, let time):
            try ensure(uri, at: time)
            try database.run("UPDATE tracks SET skip_count = skip_count + 1 WHERE uri = ?", [.text(uri)])
        case .rating(let uri, let stars, let time):
            try ensure(uri, at: time)
            try database.run("UPDATE tracks SET rating = ? WHERE uri = ?", [Self.integer(stars), .text(uri)])
        case .playlistPlayed(let id, let time):
            try database.run("INSERT OR REPLACE INTO playlist_plays (playlist_id, last_played) VALUES (?, ?)",
                             [.text(id), .integer(time)])
        }
    }

    /// A listen counts once: its start time and URI are its identity, and a listen already there changes nothing.
    private func apply(_ listen: Listen) throws {
        let inserted = try database.run("""
            INSERT OR IGNORE INTO listens (listened_at, uri, artist, title, album, duration_seconds, track_number,
                                           recording_mbid, release_mbid, artist_mbid)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(listen.listenedAt), .text(listen.uri), Self.text(listen.artist), Self.text(listen.title),
                  Self.text(listen.album), Self.integer(listen.durationSeconds), Self.integer(listen.trackNumber),
                  .text(listen.musicBrainz.recording), .text(listen.musicBrainz.release), .text(listen.musicBrainz.artist)])
        guard inserted == 1 else { return }
        try ensure(listen.uri, at: listen.listenedAt)
        try database.run("UPDATE tracks SET play_count = play_count + 1, last_played = ? WHERE uri = ?",
                         [.integer(listen.listenedAt), .text(listen.uri)])
    }

    /// When each playlist was last played, by id.
    public func playlistPlays() throws -> [String: Int64] {
        var plays: [String: Int64] = [:]
        for row in try database.query("SELECT playlist_id, last_played FROM playlist_plays") {
            if let id = row.text(0), let time = row.integer(1) { plays[id] = time }
        }
        return plays
    }

    /// The oldest listens not sent yet, oldest first.
    public func waitingListens(limit: Int) throws -> [Listen] {
        try database.query("""
            SELECT listened_at, uri, artist, title, album, duration_seconds, track_number, recording_mbid, release_mbid,
                   artist_mbid FROM listens WHERE sent = 0 ORDER BY listened_at LIMIT ?
            """, [.integer(Int64(limit))]).map { row in
            var listen = Listen(listenedAt: row.integer(0) ?? 0, uri: row.text(1) ?? "", artist: row.text(2), title: row.text(3),
                                album: row.text(4), durationSeconds: row.integer(5).map(Int.init),
                                trackNumber: row.integer(6).map(Int.init))
            listen.musicBrainz = MusicBrainzTags(recording: row.text(7) ?? "", release: row.text(8) ?? "", artist: row.text(9) ?? "")
            return listen
        }
    }

    public func waitingCount() throws -> Int {
        Int(try database.query("SELECT count(*) FROM listens WHERE sent = 0").first?.integer(0) ?? 0)
    }

    /// Listens the server accepted: never sent again.
    public func markSent(_ listens: [Listen]) throws {
        try database.transaction {
            let update = try database.prepare("UPDATE listens SET sent = 1 WHERE listened_at = ? AND uri = ?")
            for listen in listens { try update.run([.integer(listen.listenedAt), .text(listen.uri)]) }
        }
    }

    /// Gives SQLite's page cache back after reading or writing a whole queue's tracks (`Database.releaseCache`):
    /// measured at rest with a history of 100 000 queued tracks, it kept 2 MB, where every other change touches a
    /// few pages.
    private func releaseCache() throws {
        try database.releaseCache()
    }

    private func ensure(_ uri: String, at time: Int64) throws {
        try database.run("INSERT OR IGNORE INTO tracks (uri, first_added) VALUES (?, ?)", [.text(uri), .integer(time)])
    }

    private static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    private static func integer(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}
