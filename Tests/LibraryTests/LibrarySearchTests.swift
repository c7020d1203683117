import Foundation
import Library
import TestSupport
import XCTest

final class LibrarySearchTests: XCTestCase {
    /// One library for the whole class: the searches only read it.
    private static var shared: ScannedLibrary?

    override class func tearDown() {
        shared?.scanner.waitUntilIdle()
        shared = nil
    }

    private func library() throws -> ScannedLibrary {
        if let shared = Self.shared { return shared }
        let library = try ScannedLibrary()
        func song(_ path: String, _ title: String, _ artist: String, _ album: String, year: Int, track: Int,
                  disc: Int = 1, albumArtist: String? = nil, genre: String = "Jazz") -> TaggedTree.File {
            var tags = ["TITLE": title, "ARTIST": artist, "ALBUM": album, "DATE": "\(year)", "TRACKNUMBER": "\(track)",
                        "DISCNUMBER": "\(disc)", "GENRE": genre]
            tags["ALBUMARTIST"] = albumArtist
            return TaggedTree.File(path, tags)
        }
        try library.write([
            song("miles/kob/2.flac", "Freddie Freeloader", "Miles Davis", "Kind of Blue", year: 1959, track: 2),
            song("miles/kob/1.mp3", "So What", "Miles Davis", "Kind of Blue", year: 1959, track: 1),
            song("sg/bridge/1.ogg", "Bridge over Troubled Water", "Simon & Garfunkel", "Bridge over Troubled Water",
                 year: 1970, track: 1, genre: "Folk"),
            song("sg/sounds/3.opus", "The Sound of Silence", "Simon & Garfunkel", "Sounds of Silence", year: 1966,
                 track: 1, genre: "Folk"),
            song("b/lemonade/1.m4a", "Formation", "Beyoncé", "Lemonade", year: 2016, track: 12, genre: "Pop"),
            song("nina/1.wv", "Sinnerman", "Nina Simone", "Pastel Blues", year: 1965, track: 5),
            song("various/2-1.wav", "Disc Two Opener", "Someone", "Mixtape", year: 1975, track: 1, disc: 2,
                 albumArtist: "Various Artists", genre: "Rock"),
            song("various/1-9.flac", "Disc One Closer", "Another", "Mixtape", year: 1975, track: 9, disc: 1,
                 albumArtist: "Various Artists", genre: "Rock"),
        ])
        library.scan()
        Self.shared = library
        return library
    }

    func testWordPrefixesFindAcrossFields() throws {
        XCTAssertEqual(try library().titles("simon gar"), ["The Sound of Silence", "Bridge over Troubled Water"])
        XCTAssertEqual(try library().titles("kind blu"), ["So What", "Freddie Freeloader"])
    }

    func testCaseAndDiacriticsAreFolded() throws {
        XCTAssertEqual(try library().titles("BEYONCE"), ["Formation"])
        XCTAssertEqual(try library().titles("beyoncé lemon"), ["Formation"])
    }

    func testFieldFilters() throws {
        XCTAssertEqual(try library().titles("artist:simone"), ["Sinnerman"])
        XCTAssertEqual(try library().titles("title:silence"), ["The Sound of Silence"])
        XCTAssertEqual(try library().titles("album:\"sounds of\""), ["The Sound of Silence"])
        XCTAssertEqual(try library().titles("albumartist:various"), ["Disc One Closer", "Disc Two Opener"])
        XCTAssertEqual(try library().titles("genre:folk year:1960..1969"), ["The Sound of Silence"])
        XCTAssertEqual(try library().titles("year:1970..1979 genre:rock"), ["Disc One Closer", "Disc Two Opener"])
        XCTAssertEqual(try library().titles("file:flac"), ["Freddie Freeloader", "Disc One Closer"])
    }

    func testResultsComeInAlbumOrder() throws {
        XCTAssertEqual(try library().titles(""), [
            "Formation", "So What", "Freddie Freeloader", "Sinnerman", "The Sound of Silence",
            "Bridge over Troubled Water", "Disc One Closer", "Disc Two Opener",
        ])
    }

    func testPagesAndTotals() throws {
        let page = try library().catalog().search(SearchQuery(""), offset: 2, limit: 3)
        XCTAssertEqual(page.total, 8)
        XCTAssertEqual(page.tracks.map(\.title), ["Freddie Freeloader", "Sinnerman", "The Sound of Silence"])
    }

    func testArtistsAlbumsAndStatistics() throws {
        let catalog = try library().catalog()
        XCTAssertEqual(try catalog.artists(SearchQuery("")).map(\.name),
                       ["Beyoncé", "Miles Davis", "Nina Simone", "Simon & Garfunkel", "Various Artists"])
        XCTAssertEqual(try catalog.albums(SearchQuery("garfunkel")).map(\.title), ["Sounds of Silence", "Bridge over Troubled Water"])
        let statistics = try catalog.statistics()
        XCTAssertEqual(statistics.tracks, 8)
        XCTAssertEqual(statistics.albums, 6)
        XCTAssertGreaterThan(statistics.lastScanEnd, 0)
    }

    /// What a user may type: FTS5 syntax, SQL, quotes left open, only punctuation. None is an error, none
    /// reaches SQL as SQL.
    func testQueryTextIsNeverSyntax() throws {
        for text in ["\"", "a\"b", "NEAR(x y)", "* OR 1", "'); DROP TABLE tracks; --", "artist:", "year:abc",
                     "year:1979..1970", "-", "^so", "{title}: so", "so AND", "(", "title:\"", String(repeating: "x ", count: 500)] {
            XCTAssertNoThrow(try library().search(text), text)
        }
        XCTAssertEqual(try library().titles("'); DROP TABLE tracks; --").count, 0)
        XCTAssertEqual(try library().titles("").count, 8)
        XCTAssertEqual(try library().titles("^so what"), ["So What"])
    }

    func testQueriesAreParsedIntoQuotedPrefixes() {
        XCTAssertEqual(SearchQuery("simon gar").textMatch, "(\"simon\"*) AND (\"gar\"*)")
        XCTAssertEqual(SearchQuery("s").textMatch, "(\"s\")", "one letter is a whole word, not a prefix")
        XCTAssertEqual(SearchQuery("title:so b").textMatch, "{title} : (\"so\"*) AND (\"b\")")
        XCTAssertEqual(SearchQuery("artist:\"nina simone\"").textMatch, "{artists} : (\"nina\"* AND \"simone\"*)")
        XCTAssertEqual(SearchQuery("year:1970..1979").years, 1970...1979)
        XCTAssertEqual(SearchQuery("year:1971").years, 1971...1971)
        XCTAssertNil(SearchQuery("year:1979..1970").years)
        XCTAssertNil(SearchQuery("\" - ").textMatch)
    }

    func testHugeQueriesAreBounded() throws {
        let words = SearchQuery(String(repeating: "word ", count: 200_000))
        XCTAssertEqual(words.textMatch?.components(separatedBy: " AND ").count, 32)
        let quoted = SearchQuery("title:\"" + String(repeating: "a ", count: 400) + "\"")
        XCTAssertLessThanOrEqual(quoted.textMatch?.components(separatedBy: " AND ").count ?? 0, 32)
        XCTAssertNoThrow(try library().search(String(repeating: "so ", count: 100_000)))
    }
}

final class LargeResultSearchTests: XCTestCase {
    /// Over 1 000 matches, a page is found by walking the album-order index: the same tracks in the same order
    /// as the whole sorted result.
    func testAPageOfManyMatchesIsTheSliceOfTheSortedResult() throws {
        let library = try ScannedLibrary()
        try TaggedTree.write((0..<1100).map { number in
            TaggedTree.File("a\(number % 7)/\(number).mp3", ["TITLE": "Many \(number)", "ARTIST": "Artist \(number % 13)",
                                                             "ALBUM": "Album \(number % 5)", "TRACKNUMBER": "\(number % 17)"])
        }, under: library.music, seconds: 0.1)
        library.scan()
        let catalog = try library.catalog()
        let all = try catalog.uris(SearchQuery("many"))
        XCTAssertEqual(all.count, 1100)
        for offset in [0, 500, 1095] {
            let page = try catalog.search(SearchQuery("many"), offset: offset, limit: 10)
            XCTAssertEqual(page.total, 1100)
            XCTAssertEqual(page.tracks.map(\.uri), Array(all[offset..<min(1100, offset + 10)]), "offset \(offset)")
        }
    }
}

final class KeptStatementTests: XCTestCase {
    /// The catalog keeps each query's statement: a search after the scanner wrote more tracks finds them, so a
    /// kept statement holds no snapshot of the index from its last run.
    func testASearchSeesWhatWasWrittenSinceTheSameSearchLastRan() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("first.flac", ["TITLE": "Kept One", "DATE": "1971"])])
        library.scan()
        let catalog = try library.catalog()
        XCTAssertEqual(try catalog.search(SearchQuery("kept"), offset: 0, limit: 10).total, 1)
        XCTAssertEqual(try catalog.search(SearchQuery("kept year:1970..1979"), offset: 0, limit: 10).tracks.count, 1)
        try library.write([TaggedTree.File("second.flac", ["TITLE": "Kept Two", "DATE": "1972"])])
        library.scan()
        let page = try catalog.search(SearchQuery("kept"), offset: 0, limit: 10)
        XCTAssertEqual(page.total, 2)
        XCTAssertEqual(page.tracks.map(\.title), ["Kept One", "Kept Two"])
        XCTAssertEqual(try catalog.search(SearchQuery("kept year:1970..1979"), offset: 0, limit: 10).tracks.count, 2)
        XCTAssertEqual(try catalog.statistics().tracks, 2)
    }
}
