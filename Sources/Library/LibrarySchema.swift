/// The index's schema, every version of it in one place: `migrations[i]` takes a file from version `i` to
/// `i + 1` (`Database.migrate`). The index holds only what a scan can rebuild; nothing the user made lives here.
enum LibrarySchema {
    static let migrations = [version1]

    /// Tracks, with an external-content FTS5 table over the searched columns kept in step by triggers.
    /// `artists` holds several artists separated by U+001F, which the unicode61 tokenizer treats as a
    /// separator. `missing` marks tracks of a folder that is not there now (a disk unmounted): kept, not dropped.
    static let version1 = """
        CREATE TABLE tracks(
            id INTEGER PRIMARY KEY,
            uri TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL,
            file_name TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL,
            title TEXT NOT NULL, artists TEXT NOT NULL, album TEXT NOT NULL, album_artist TEXT NOT NULL,
            composer TEXT NOT NULL, genre TEXT NOT NULL,
            track INTEGER NOT NULL, disc INTEGER NOT NULL, year INTEGER NOT NULL, length_ms INTEGER NOT NULL,
            track_gain REAL, track_peak REAL, album_gain REAL, album_peak REAL,
            mb_recording TEXT NOT NULL, mb_album TEXT NOT NULL, mb_artist TEXT NOT NULL, mb_album_artist TEXT NOT NULL,
            has_cover INTEGER NOT NULL,
            missing INTEGER NOT NULL DEFAULT 0,
            -- album order: album artist (the track's artists when untagged), year, album, disc, track
            sort_artist TEXT NOT NULL COLLATE NOCASE
        );
        CREATE INDEX tracks_in_album_order ON tracks(sort_artist, year, album COLLATE NOCASE, disc, track, path);
        CREATE VIRTUAL TABLE tracks_text USING fts5(
            title, artists, album, album_artist, composer, genre, file_name,
            content='tracks', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
        CREATE TRIGGER tracks_inserted AFTER INSERT ON tracks BEGIN
            INSERT INTO tracks_text(rowid, title, artists, album, album_artist, composer, genre, file_name)
            VALUES (new.id, new.title, new.artists, new.album, new.album_artist, new.composer, new.genre, new.file_name);
        END;
        CREATE TRIGGER tracks_deleted AFTER DELETE ON tracks BEGIN
            INSERT INTO tracks_text(tracks_text, rowid, title, artists, album, album_artist, composer, genre, file_name)
            VALUES ('delete', old.id, old.title, old.artists, old.album, old.album_artist, old.composer, old.genre,
                    old.file_name);
        END;
        CREATE TRIGGER tracks_updated AFTER UPDATE OF title, artists, album, album_artist, composer, genre, file_name
            ON tracks BEGIN
            INSERT INTO tracks_text(tracks_text, rowid, title, artists, album, album_artist, composer, genre, file_name)
            VALUES ('delete', old.id, old.title, old.artists, old.album, old.album_artist, old.composer, old.genre,
                    old.file_name);
            INSERT INTO tracks_text(rowid, title, artists, album, album_artist, composer, genre, file_name)
            VALUES (new.id, new.title, new.artists, new.album, new.album_artist, new.composer, new.genre, new.file_name);
        END;
        CREATE TABLE facts(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        """
}
