import FoundationEssentials
import Glibc
import SQLite

/// The index file, `$XDG_CACHE_HOME/quaver/library.db`: opened, checked, and rebuilt when it cannot be used.
///
/// Everything in it can be rebuilt by a scan, so a damaged or unknown (newer) file is removed and made again
/// with one log line, and a file that cannot be written is searched read-only. Each thread opens its own
/// connection (`Database` is one thread's): the scanner writes, the loop reads; WAL lets both run at once.
public struct LibraryIndex: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// Whether the file is there: a scan with nothing to index leaves it unmade (`LibraryScanner`).
    public var isMade: Bool { Database.isMade(at: path) }

    /// Opens the file for writing, making or rebuilding it as needed. `note` gets one line for each thing
    /// done that the user should know of. Throws when the file cannot be opened even read-only.
    public func openForWriting(note: (String) -> Void) throws -> IndexConnection {
        do {
            return try openChecked()
        } catch let error as SQLiteError where error.isReadOnly {
            note("the library index \(path) cannot be written (\(error)): searching it as it is, without updates")
            return IndexConnection(database: try Database(path: path, readOnly: true, create: false), isReadOnly: true)
        } catch let error as SQLiteError where error.isBusy {
            throw error
        } catch {
            note("the library index \(path) cannot be used (\(error)): rebuilding it")
            removeFiles()
            return try openChecked()
        }
    }

    /// A read-only connection, for searching (on the loop thread). It waits for another connection's lock 50 ms
    /// at most (in WAL mode readers wait only while a file is being recovered): the loop must not stall on it.
    public func openForReading() throws -> IndexConnection {
        IndexConnection(database: try Database(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 50),
                        isReadOnly: true)
    }

    private func openChecked() throws -> IndexConnection {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        let database = try Database(path: path)
        // SQLite opens a file it may not write read-only, without an error: say so here, not at the first write.
        guard !database.isReadOnly else { throw SQLiteError.readOnlyFile }
        try database.useWriteAheadLog()
        try database.migrate(LibrarySchema.migrations)
        guard database.isIntact() else { throw DamagedIndex() }
        return IndexConnection(database: database, isReadOnly: false)
    }

    /// The file and its WAL companions; a failure leaves them for the next open to report.
    private func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}

/// SQLite's own check (`PRAGMA quick_check`) found the file damaged.
struct DamagedIndex: Error, CustomStringConvertible {
    var description: String { "its structure is damaged" }
}

/// One connection to the index, used by one thread.
public final class IndexConnection {
    let database: Database
    public let isReadOnly: Bool

    init(database: Database, isReadOnly: Bool) {
        self.database = database
        self.isReadOnly = isReadOnly
    }

    // MARK: What the scanner writes

    /// The state of every indexed file at `uri` or under it (a folder), by URI, to tell which changed since
    /// they were read; every file of the index when `uri` is nil.
    func knownFiles(at uri: String? = nil) throws -> [String: FileState] {
        var known: [String: FileState] = [:]
        let rows = try uri.map { uri in
            try database.query("SELECT uri, size, modified FROM tracks WHERE uri = ?3 OR (uri >= ?1 AND uri < ?2)",
                               Self.prefixRange(uri) + [.text(uri)])
        } ?? database.query("SELECT uri, size, modified FROM tracks")
        for row in rows {
            guard let uri = row.text(0), let size = row.integer(1), let modified = row.integer(2) else { continue }
            known[uri] = FileState(size: size, modified: modified)
        }
        return known
    }

    /// Writes `tracks` (new or changed) and removes `removed` URIs, in one transaction.
    func save(_ tracks: [LibraryTrack], removing removed: [String] = []) throws {
        try database.transaction {
            let upsert = try database.prepare(Self.upsertSQL)
            for track in tracks { try upsert.run(Self.values(of: track)) }
            let delete = try database.prepare("DELETE FROM tracks WHERE uri = ?1")
            for uri in removed { try delete.run([.text(uri)]) }
        }
    }

    /// Removes the tracks in none of the folders (`folderURIs`): a folder taken out of the settings.
    func removeTracks(outside folderURIs: [String]) throws {
        let inside = folderURIs.indices.map { "(uri >= ?\($0 * 2 + 1) AND uri < ?\($0 * 2 + 2))" }
        let condition = inside.isEmpty ? "1" : "NOT (" + inside.joined(separator: " OR ") + ")"
        try database.transaction {
            _ = try database.run("DELETE FROM tracks WHERE \(condition)", folderURIs.flatMap(Self.prefixRange))
        }
    }

    /// Marks the tracks under `folderURI` as missing (its disk is away) or back; answers how many changed.
    @discardableResult
    func markTree(_ folderURI: String, missing: Bool) throws -> Int {
        try database.run("UPDATE tracks SET missing = ?3 WHERE uri >= ?1 AND uri < ?2 AND missing != ?3",
                         Self.prefixRange(folderURI) + [.integer(missing ? 1 : 0)])
    }

    func trackCount() throws -> Int {
        Int(try database.query("SELECT count(*) FROM tracks").first?.integer(0) ?? 0)
    }

    /// When the last full scan ended (seconds since 1970): `Statistics`' `LastScan`.
    func setLastScanEnd(_ time: Int64) throws {
        try database.run("INSERT INTO facts(name, value) VALUES ('last-scan-end', ?1) ON CONFLICT(name) DO UPDATE SET value = ?1",
                         [.integer(time)])
    }

    /// Gives back the page cache a scan filled (`Database.releaseCache`): up to 2 MB, kept for the live updates' few pages.
    func releaseCache() {
        try? database.releaseCache()
    }

    /// `folder/` up to `folder0` (`0` follows `/`): the URIs inside the folder, as a range an index can use.
    static func prefixRange(_ folderURI: String) -> [SQLiteValue] {
        let base = folderURI.hasSuffix("/") ? String(folderURI.dropLast()) : folderURI
        return [.text(base + "/"), .text(base + "0")]
    }

    private static let upsertSQL = """
        INSERT INTO tracks(uri, path, file_name, size, modified, title, artists, album, album_artist, composer, genre,
            track, disc, year, length_ms, track_gain, track_peak, album_gain, album_peak,
            mb_recording, mb_album, mb_artist, mb_album_artist, has_cover, missing, sort_artist)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22,
                ?23, ?24, 0, ?25)
        ON CONFLICT(uri) DO UPDATE SET path = ?2, file_name = ?3, size = ?4, modified = ?5, title = ?6, artists = ?7,
            album = ?8, album_artist = ?9, composer = ?10, genre = ?11, track = ?12, disc = ?13, year = ?14,
            length_ms = ?15, track_gain = ?16, track_peak = ?17, album_gain = ?18, album_peak = ?19,
            mb_recording = ?20, mb_album = ?21, mb_artist = ?22, mb_album_artist = ?23, has_cover = ?24, missing = 0,
            sort_artist = ?25
        """

    static let artistSeparator = "\u{1F}"

    private static func values(of track: LibraryTrack) -> [SQLiteValue] {
        let gain = track.replayGain, ids = track.musicBrainz
        let optional = { (number: Double?) in number.map(SQLiteValue.real) ?? .null }
        let artists = track.artists.joined(separator: artistSeparator)
        return [.text(track.uri), .text(track.path), .text(track.fileName), .integer(track.size), .integer(track.modified),
                .text(track.title), .text(artists), .text(track.album), .text(track.albumArtist),
                .text(track.composer), .text(track.genre), .integer(Int64(track.trackNumber)),
                .integer(Int64(track.discNumber)), .integer(Int64(track.year)), .integer(Int64(track.lengthMilliseconds)),
                optional(gain.trackGain), optional(gain.trackPeak), optional(gain.albumGain), optional(gain.albumPeak),
                .text(ids.recording), .text(ids.album), .text(ids.artist), .text(ids.albumArtist),
                .integer(track.hasCover ? 1 : 0),
                .text(track.albumArtist.isEmpty ? (track.artists.first ?? "") : track.albumArtist)]
    }
}
