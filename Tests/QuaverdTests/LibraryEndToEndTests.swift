import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// The music library through the real quaverd on a private bus: its default folder (`~/Music`, no
/// user-dirs.dirs here) indexed at start, searched, played and added by query from the real `quaver` CLI,
/// kept current while it runs, and refusing bad calls without changing anything.
final class LibraryEndToEndTests: XCTestCase {
    var home: TemporaryDirectory!
    var daemon: RunningDaemon!

    private var music: URL { home.url.appendingPathComponent("Music") }

    override func setUpWithError() throws {
        home = try TemporaryDirectory(prefix: "library-home")
        let song = { (path: String, title: String, artist: String, album: String, track: Int, year: Int) in
            TaggedTree.File(path, ["TITLE": title, "ARTIST": artist, "ALBUM": album, "TRACKNUMBER": "\(track)",
                                   "DATE": "\(year)"])
        }
        try TaggedTree.write([
            song("Miles Davis/Kind of Blue/02.flac", "Freddie Freeloader", "Miles Davis", "Kind of Blue", 2, 1959),
            song("Miles Davis/Kind of Blue/01.mp3", "So What", "Miles Davis", "Kind of Blue", 1, 1959),
            song("Simon & Garfunkel/Bridge/01.ogg", "Bridge over Troubled Water", "Simon & Garfunkel", "Bridge", 1, 1970),
            song("Beyoncé/Lemonade/01.m4a", "Formation", "Beyoncé", "Lemonade", 1, 2016),
        ], under: music)
        daemon = try RunningDaemon(home: home)
        XCTAssertTrue(eventually(timeout: 20) { self.trackCount == 4 }, "the first scan did not finish: \(daemon.logTail)")
    }

    override func tearDown() {
        daemon = nil
        home = nil
    }

    private var trackCount: Int64 {
        (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) ?? -1
    }

    @discardableResult
    private func quaver(_ arguments: String..., expectStatus: Int32 = 0,
                        file: StaticString = #filePath, line: UInt = #line) throws -> (stdout: String, stderr: String) {
        let binary = productsDirectory.appendingPathComponent("quaver").path
        let withBus = [arguments[0], "--bus-address", daemon.bus.address] + arguments.dropFirst()
        let result = try ChildProcess.run(binary, withBus, environment: ["LC_ALL": "C.UTF-8", "HOME": home.path], timeout: 20)
        XCTAssertEqual(result.status, expectStatus, "quaver \(arguments): \(result.stderr)", file: file, line: line)
        return (result.stdout, result.stderr)
    }

    private var queuedTitles: [String] {
        get throws {
            let reply = try daemon.call("GetQueue", on: ControlAPI.quaverInterface)
            return (reply[0].arrayValue ?? []).compactMap { entry in
                entry.arrayValue?[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue
            }.map { URL(string: $0)?.deletingPathExtension().lastPathComponent ?? $0 }
        }
    }

    func testSearchPlayAndAddByQueryFromTheCLI() throws {
        let found = try quaver("search", "kind", "blu").stdout
        XCTAssertEqual(found.split(separator: "\n").map { String($0.prefix { $0 != " " }) }, ["So", "Freddie"])
        let json = try JSONSerialization.jsonObject(with: Data(try quaver("search", "--json", "beyonce").stdout.utf8))
        XCTAssertEqual((json as? [String: Any])?["total"] as? Int, 1)

        XCTAssertEqual(try quaver("play", "artist:davis").stdout, "queued 2 tracks\n")
        XCTAssertEqual(try queuedTitles, ["01", "02"])
        daemon.waitUntil("playing", { self.daemon.status == "Playing" })
        // Tags of queued files arrive from quaverd's own tag reading, a moment after the track starts.
        XCTAssertTrue(eventually(timeout: 10) { self.daemon.metadata["xesam:title"]?.stringValue == "So What" },
                      "\(self.daemon.metadata)")

        XCTAssertEqual(try quaver("add", "simon", "gar").stdout, "queued 1 track\n")
        XCTAssertEqual(try queuedTitles.count, 3)
        let nothing = try quaver("play", "no such music anywhere", expectStatus: 1)
        XCTAssertTrue(nothing.stderr.contains("nothing in the library matches"), nothing.stderr)
        XCTAssertEqual(try queuedTitles.count, 3)
        XCTAssertEqual(daemon.status, "Playing")

        XCTAssertTrue(try quaver("artists").stdout.contains("Simon & Garfunkel  (1)"))
        XCTAssertTrue(try quaver("albums", "year:1950..1960").stdout.contains("Miles Davis – Kind of Blue (1959)  2 tracks"))
        let summary = try quaver("library").stdout
        XCTAssertTrue(summary.contains("4 tracks, 3 albums, 3 artists"), summary)
    }

    func testTheIndexFollowsTheFolderAndSignalsTheCount() throws {
        try TaggedTree.write([TaggedTree.File("New/one.wv", ["TITLE": "Arrived Later"])], under: music)
        XCTAssertTrue(eventually(timeout: 5) { self.trackCount == 5 })
        XCTAssertTrue(try quaver("search", "arrived").stdout.hasPrefix("Arrived Later"))
        try FileManager.default.removeItem(at: music.appendingPathComponent("Beyoncé"))
        XCTAssertTrue(eventually(timeout: 5) { self.trackCount == 4 })
        try quaver("rescan")
        XCTAssertEqual(trackCount, 4)
    }

    func testTheSearchProviderAnswersAndRefusesIdsItDidNotMake() throws {
        let call = { (method: String, arguments: [DBusValue]) in
            try self.daemon.client.call(destination: ControlAPI.busName, path: ObjectPath(stringLiteral: ControlAPI.searchProviderPath),
                                        interface: ControlAPI.searchProviderInterface, method: method, arguments: arguments)
        }
        let ids = try call("GetInitialResultSet", [.stringArray(["miles"])]).first?.stringArrayValue ?? []
        XCTAssertEqual(ids, ["album\u{1F}Miles Davis\u{1F}Kind of Blue", "artist\u{1F}Miles Davis"])
        let metas = try call("GetResultMetas", [.stringArray(ids + ["nonsense", "album\u{1F}x", "track\u{1F}/etc/passwd"])])
        XCTAssertEqual(metas.first?.arrayValue?.count, 2)
        XCTAssertThrowsError(try call("ActivateResult", [.string("track\u{1F}file:///etc/passwd"), .stringArray([]), .uint32(0)]))
        XCTAssertThrowsError(try call("ActivateResult", [.string("\u{1F}\u{1F}"), .stringArray([]), .uint32(0)]))
        XCTAssertThrowsError(try call("GetInitialResultSet", [.string("miles")]))
        XCTAssertEqual(try call("GetInitialResultSet", [.stringArray(["\"", "NEAR("])]).first?.stringArrayValue, [])
        XCTAssertEqual(try queuedTitles, [])
        _ = try call("LaunchSearch", [.stringArray(["simon"]), .uint32(0)])
        daemon.waitUntil("playing", { self.daemon.status == "Playing" })
        XCTAssertEqual(try queuedTitles, ["01"])
    }

    func testTheSearchProviderShowsAnEmbeddedCover() throws {
        let fixtures = try Media.fixtures()
        try FileManager.default.createDirectory(at: music.appendingPathComponent("Fixtures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.flac, to: music.appendingPathComponent("Fixtures/tone.flac"))
        XCTAssertTrue(eventually(timeout: 5) { self.trackCount == 5 })
        let reply = try daemon.client.call(destination: ControlAPI.busName, path: ObjectPath(stringLiteral: ControlAPI.searchProviderPath),
                                           interface: ControlAPI.searchProviderInterface, method: "GetResultMetas",
                                           arguments: [.stringArray(["album\u{1F}\(Fixtures.artist)\u{1F}\(Fixtures.album)"])])
        let meta = try XCTUnwrap(reply.first?.arrayValue?.first?.dictionaryValue)
        let icon = try XCTUnwrap(URL(string: meta["gicon"]?.unwrapped.stringValue ?? ""))
        XCTAssertTrue(icon.isFileURL && icon.path.hasPrefix(daemon.artDirectory.path), icon.absoluteString)
        XCTAssertEqual([UInt8](try Data(contentsOf: icon)), fixtures.coverBytes)
    }

    func testBadCallsGetErrorsAndChangeNothing() throws {
        let call = { (method: String, arguments: [DBusValue]) in
            try self.daemon.call(method, arguments, on: ControlAPI.libraryInterface)
        }
        XCTAssertThrowsError(try call("Search", [.int32(1), .uint32(0), .uint32(10)]))
        XCTAssertThrowsError(try call("Search", [.string("x")]))
        XCTAssertThrowsError(try call("AddQuery", [.string("davis"), .string("middle"), .boolean(true)]))
        XCTAssertThrowsError(try call("PlayQuery", [.variant(.string("davis"))]))
        for query in ["\"", "NEAR(a b)", "'); DROP TABLE tracks; --", "year:9..1", String(repeating: "(", count: 10_000)] {
            XCTAssertNoThrow(try call("Search", [.string(query), .uint32(0), .uint32(UInt32.max)]), query)
        }
        let page = try call("Search", [.string(""), .uint32(1), .uint32(UInt32.max)])
        XCTAssertEqual(page[0].arrayValue?.count, 3)
        XCTAssertEqual(page[1].int64Value, 4)
        XCTAssertEqual(try queuedTitles, [])
        XCTAssertEqual(trackCount, 4)
    }
}
