import CSQLite
import Dispatch
import SQLite
import Synchronization
import XCTest

final class DatabaseTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A connection's cache takes its pages as it needs them: SQLite's default first block of 20 pages (about 86 KiB,
    /// written through at once) is configured away, and a small file's connection stays well under it. SQLite's
    /// count is the whole process's, where another test's work may still be finishing: the least of three is taken.
    func testAConnectionTakesNoFirstBlockOfCachePages() throws {
        XCTAssertEqual(quaver_sqlite_load(), 1, String(cString: quaver_sqlite_load_error()))
        let used = try (1...3).map { (attempt: Int) -> Int64 in
            let before = quaver_sqlite3_memory_used()
            let database = try Database(path: folder + "/small-\(attempt).db")
            try database.execute("CREATE TABLE t (i INTEGER PRIMARY KEY, s TEXT)")
            try database.run("INSERT INTO t (s) VALUES (?)", [.text("one row")])
            XCTAssertEqual(try database.query("SELECT s FROM t").first?.text(0), "one row")
            return quaver_sqlite3_memory_used() - before
        }.min() ?? 0
        print("one connection to a one-row file holds \(used) bytes")
        XCTAssertLessThan(used, 48 * 1024, "one connection to a one-row file holds \(used) bytes")
    }

    func testValuesRoundTripWithNULAndNonASCIIText() throws {
        let database = try Database(path: folder + "/a.db")
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let values: [SQLiteValue] = [.integer(-7), .real(0.5), .text("Beyoncé\u{0}x"), .blob([0, 1, 255]), .null]
        try database.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        XCTAssertEqual(try database.query("SELECT * FROM t"), [Row(values: values)])
        try database.run("INSERT INTO t (s, b) VALUES (?, ?)", [.text(""), .blob([])])
        let empty = try database.query("SELECT s, b FROM t WHERE i IS NULL")
        XCTAssertEqual(empty.first?.text(0), "")
    }

    func testMigrationsRunOnceEachAndANewerFileIsRefused() throws {
        let path = folder + "/m.db"
        let migrations = ["CREATE TABLE a (x)", "CREATE TABLE b (y)"]
        try Database(path: path).migrate(migrations)
        let database = try Database(path: path)
        XCTAssertEqual(try database.userVersion, 2)
        try database.migrate(migrations)  // nothing left to run: creating the tables again would fail
        XCTAssertThrowsError(try database.migrate(["CREATE TABLE a (x)"]))
    }

    /// Connections that make the same new file at once (the history's first write and the ListenBrainz sender)
    /// each run every migration at most once between them: none finds a table made already.
    func testConnectionsMigratingANewFileAtOnceDoNotCollide() throws {
        let migrations = ["CREATE TABLE a (x)", "CREATE TABLE b (y)", "CREATE TABLE c (z)"]
        let failures = Mutex<[String]>([])
        for file in 0..<20 {
            let path = folder + "/race-\(file).db"
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { try Database(path: path).migrate(migrations) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }

    func testAFailedTransactionLeavesNothing() throws {
        let database = try Database(path: folder + "/t.db")
        try database.execute("CREATE TABLE t (x UNIQUE)")
        XCTAssertThrowsError(try database.transaction {
            try database.run("INSERT INTO t VALUES (1)")
            try database.run("INSERT INTO t VALUES (1)")
        })
        XCTAssertEqual(try database.query("SELECT count(*) FROM t").first?.integer(0), 0)
    }

    func testASymbolicLinkIsNotFollowedAndGarbageIsCorrupt() throws {
        let target = folder + "/target.db"
        try Database(path: target).execute("CREATE TABLE t (x)")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.db", withDestinationPath: target)
        XCTAssertThrowsError(try Database(path: folder + "/link.db"))

        let garbage = folder + "/garbage.db"
        XCTAssertTrue(FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0x41, count: 8192)))
        XCTAssertThrowsError(try Database(path: garbage).execute("CREATE TABLE t (x)")) { error in
            XCTAssertTrue((error as? SQLiteError)?.isCorrupt == true, "\(error)")
        }
    }

    func testWriteAheadLogLetsAReaderSeeCommittedRowsWhileAWriterHoldsATransaction() throws {
        let path = folder + "/w.db"
        let writer = try Database(path: path)
        try writer.useWriteAheadLog()
        try writer.execute("CREATE TABLE t (x)")
        try writer.run("INSERT INTO t VALUES (1)")
        try writer.execute("BEGIN IMMEDIATE")
        try writer.run("INSERT INTO t VALUES (2)")
        let reader = try Database(path: path, readOnly: true)
        XCTAssertEqual(try reader.query("SELECT count(*) FROM t").first?.integer(0), 1)
        try writer.execute("COMMIT")
        XCTAssertEqual(try reader.query("SELECT count(*) FROM t").first?.integer(0), 2)
        XCTAssertTrue(writer.isIntact())
    }
}
