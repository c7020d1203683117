/// The recorder's connection to the history file, used on the history queue only.
///
/// A file that is there is opened at start, because its history is read then (`HistoryRecorder.load`). A file not
/// made yet holds nothing to read, so it is made by the first write instead: a daemon that has queued nothing yet
/// (the first start, or the library off and nothing played) never runs SQLite, whose code and caches were 1.3 MB
/// resident at rest (docs/reliability.md).
///
/// A connection given the means to open the file again is closed whenever the history queue has nothing left to
/// do (`closeWhileIdle`), and opened again by the next use: the file is written a few times per track, and an open
/// connection kept libsqlite3 (unloaded with the last connection, `CSQLite`), its cache and its WAL maps resident for
/// the rest of the session: 1.2 MB of VmRSS while playing (docs/reliability.md). Every change is committed before the close, so nothing waits in memory.
///
/// While music plays, changes go to the journal beside the file instead (`HistoryJournal`), so SQLite is not loaded
/// at all until the journal is folded in.
public final class HistoryConnection {
    public let journal: HistoryJournal
    private var database: HistoryDatabase?
    private var open: (() throws -> HistoryDatabase)?
    /// Whether the file was there, and opened, when this was made: otherwise there is nothing to read at start.
    /// Set once, so any thread may ask.
    public let wasThereAtStart: Bool

    /// A file opened already, kept open.
    public init(_ database: HistoryDatabase) {
        self.database = database
        journal = HistoryJournal(besideHistoryAt: database.path)
        wasThereAtStart = true
    }

    /// A file opened already, closed while idle and opened again by `open`.
    public init(_ database: HistoryDatabase, reopenedBy open: @escaping () throws -> HistoryDatabase) {
        self.database = database
        self.open = open
        journal = HistoryJournal(besideHistoryAt: database.path)
        wasThereAtStart = true
    }

    /// A file at `path` that `open` makes at the first write (and opens again after each idle close).
    public init(at path: String, openedByFirstWrite open: @escaping () throws -> HistoryDatabase) {
        self.open = open
        journal = HistoryJournal(besideHistoryAt: path)
        wasThereAtStart = false
    }

    /// The file for reading: nil while it is not made (nothing to read), neither before the start nor by a fold of
    /// the journal a killed daemon left.
    func forReading() throws -> HistoryDatabase? {
        guard wasThereAtStart || database != nil else { return nil }
        return try forWriting()
    }

    /// The file for writing, made or opened again now if it is not open. A failure to open it is thrown once;
    /// later writes find nothing to write to, as when the file could not be opened at start.
    func forWriting() throws -> HistoryDatabase? {
        if let database { return database }
        guard let open else { return nil }
        do {
            database = try open()
        } catch {
            self.open = nil
            throw error
        }
        return database
    }

    /// Whether changes can reach the file: it is open, or can be opened (again); not after a failure to open it.
    var canWrite: Bool { database != nil || open != nil }

    /// Closes the file when it can be opened again: the history queue has nothing left to do.
    func closeWhileIdle() {
        if open != nil { database = nil }
    }
}
