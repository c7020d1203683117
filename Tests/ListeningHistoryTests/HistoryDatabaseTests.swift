import Foundation
import ListeningHistory
import TestSupport
import XCTest

/// The history file: counts, ratings and waiting listens kept across reopening, a corrupt file set aside.
final class HistoryDatabaseTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var path: String { folder.path + "/quaver/history.db" }

    override func setUpWithError() throws { folder = try TemporaryDirectory(prefix: "history") }

    private func open() throws -> HistoryDatabase {
        try HistoryDatabase.open(path: path, now: 1) { XCTFail("set aside: \($0)") }
    }

    private func listen(_ time: Int64, _ uri: String = "file:///m/a.flac") -> Listen {
        Listen(listenedAt: time, uri: uri, artist: "Artist", title: "Title", album: nil, durationSeconds: 200, trackNumber: 3)
    }

    func testCountsRatingsAndListensSurviveReopening() throws {
        do {
            let database = try open()
            try database.record(.added(["file:///m/a.flac", "file:///m/b.flac", "file:///m/d.flac"], at: 100))
            try database.record(.added(["file:///m/a.flac"], at: 999))
            try database.record(.listen(listen(200)))
            try database.record(.listen(listen(300)))
            try database.record(.listen(listen(300)))  // the same listen again (a journal folded twice) changes nothing
            try database.record(.skip("file:///m/b.flac", at: 400))
            try database.record(.rating("file:///m/b.flac", stars: 5, at: 500))
            try database.record(.rating("file:///m/c.flac", stars: 0, at: 600))
            try database.record(.playlistPlayed("aaaa", at: 700))
            try database.record(.playlistPlayed("aaaa", at: 800))
        }
        let database = try open()
        let all = try database.tracksWithActivity()
        XCTAssertNil(all["file:///m/d.flac"], "only queued: nothing to show")
        XCTAssertEqual(try database.firstAdded("file:///m/d.flac"), 100)
        XCTAssertNil(try database.firstAdded("file:///m/e.flac"))
        XCTAssertEqual(all["file:///m/a.flac"]?.firstAdded, 100, "the first date is kept")
        XCTAssertEqual(all["file:///m/a.flac"]?.playCount, 2, "a listen counts once")
        XCTAssertEqual(all["file:///m/a.flac"]?.lastPlayed, 300)
        XCTAssertEqual(all["file:///m/b.flac"]?.skipCount, 1)
        XCTAssertEqual(all["file:///m/b.flac"]?.rating, 5)
        XCTAssertEqual(all["file:///m/c.flac"]?.rating, 0)
        XCTAssertEqual(all["file:///m/c.flac"]?.firstAdded, 600)
        XCTAssertEqual(try database.playlistPlays(), ["aaaa": 800])

        XCTAssertEqual(try database.waitingListens(limit: 10), [listen(200), listen(300)])
        try database.markSent([listen(200)])
        XCTAssertEqual(try database.waitingListens(limit: 10), [listen(300)])
        XCTAssertEqual(try database.waitingCount(), 1)
        XCTAssertThrowsError(try database.record(.rating("file:///m/a.flac", stars: 6, at: 1)), "more than five stars")
    }

    func testACorruptFileIsSetAsideAndANewOneStarted() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/quaver", withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        var told: [String] = []
        let database = try HistoryDatabase.open(path: path, now: 42) { told.append($0) }
        XCTAssertEqual(try database.tracksWithActivity(), [:])
        XCTAssertEqual(told.count, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + ".corrupt-42"))
    }

    /// Prints the file's size per 10 000 listens of 1 000 different tracks.
    func testSizePerTenThousandListens() throws {
        var database: HistoryDatabase? = try open()
        for number in 0..<10_000 {
            try database?.record(.listen(Listen(listenedAt: 1_700_000_000 + Int64(number) * 200,
                                             uri: "file:///home/user/Music/Some%20Artist/Some%20Album/\(number % 1000)%20Track.flac",
                                             artist: "Some Artist", title: "Track \(number % 1000)", album: "Some Album",
                                             durationSeconds: 240, trackNumber: number % 12)))
        }
        database = nil  // the last connection's close folds the write-ahead log into the file
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        print("history after 10 000 listens of 1 000 tracks: \(size / 1024) KiB")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        XCTAssertEqual(try open().waitingCount(), 10_000)
    }
}
