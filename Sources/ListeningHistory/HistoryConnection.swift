/// The recorder's connection to the history file, used on the history queue only.
///
/// A file that is there is opened at start, because its history is read then (`HistoryRecorder.load`). A file not
/// made yet holds nothing to read, so it is made by the first write instead: a daemon that has queued nothing yet
/// (the first start, or the library off and nothing played) never runs SQLite, whose code and caches were 1.3 MB
/// resident at rest (docs/reliability.md).
public final class HistoryConnection {
    private var database: HistoryDatabase?
    private var open: (() throws -> HistoryDatabase)?
    /// Whether the file was there, and opened, when this was made: otherwise there is nothing to read at start.
    /// Set once, so any thread may ask.
    public let wasThereAtStart: Bool

    /// A file opened already.
    public init(_ database: HistoryDatabase) {
        self.database = database
        wasThereAtStart = true
    }

    /// A file that `open` makes at the first write.
    public init(openedByFirstWrite open: @escaping () throws -> HistoryDatabase) {
        self.open = open
        wasThereAtStart = false
    }

    /// The file for reading: nil while it is not made (nothing to read).
    var forReading: HistoryDatabase? { database }

    /// The file for writing, made now if it is not yet. A failure to make it is thrown once; later writes find
    /// nothing to write to, as when the file could not be opened at start.
    func forWriting() throws -> HistoryDatabase? {
        if let database { return database }
        guard let open else { return nil }
        self.open = nil
        database = try open()
        return database
    }
}
