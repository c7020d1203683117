import EventLoop

/// Reads the index on a thread of its own (`quaver-library`) through its own read-only connection, so the loop
/// never waits for a query: listing the albums of 100 000 tracks, or the 100 000 tracks `quaver play year:1900..`
/// queues, takes a query of tens of milliseconds to seconds, and on the loop every other client waited for it.
/// Queries run one after another; each result is posted back to the loop.
///
/// The thread runs at nice 5, below the loop, and not under `SCHED_IDLE` as the scanner does (WorkerThread): a
/// query is what a user is waiting for.
final class CatalogReader {
    /// Started by the first query (on the loop, which alone calls `read` and `reopen`): a daemon nobody searches has
    /// no such thread.
    private var thread: WorkerThread?
    private let index: LibraryIndex
    /// The reader thread's alone: opened at the first query, dropped after a failure or a rebuild of the file.
    private var catalog: LibraryCatalog?

    init(index: LibraryIndex) { self.index = index }

    /// Runs `query` with the catalog on the reader's thread, then `done` with its result on the loop.
    func read<T>(_ query: @escaping (LibraryCatalog) throws -> T, done: @escaping (Result<T, Error>) -> Void) {
        let thread = self.thread ?? WorkerThread(name: "quaver-library", niceness: 5, idle: false)
        self.thread = thread
        thread.async { [self] in
            let result = Result { try query(try opened()) }
            if case .failure = result { catalog = nil }  // the file may have been replaced or repaired meanwhile
            EventLoop.main.post { done(result) }
        }
    }

    /// The next query opens the file again: the scanner may have replaced it, and a connection opened before
    /// would go on reading the old one.
    func reopen() {
        thread?.async { [self] in catalog = nil }
    }

    private func opened() throws -> LibraryCatalog {
        if let catalog { return catalog }
        let opened = LibraryCatalog(try index.openForReading())
        catalog = opened
        return opened
    }
}
