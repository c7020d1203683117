import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// org.mpris.MediaPlayer2.Playlists on the real daemon, every member: orderings, pages, bad indexes and counts,
/// unknown orderings and ids (clear errors, nothing changed), activation, renames, ids across a restart.
final class PlaylistsInterfaceTests: XCTestCase {
    private static let interface = ControlAPI.playlistsInterface
    private var daemon: RunningDaemon!
    private var uris: [String] = []

    override func setUpWithError() throws {
        daemon = try RunningDaemon()
        uris = try SavedPlaylistTests.musicFiles(in: daemon.home)
    }

    override func tearDown() { daemon = nil }

    private var folder: URL { daemon.home.url.appendingPathComponent(".local/share/quaver/playlists") }
    /// Most played, favourites (the history's), recently added, never played (the library's): always listed here.
    private static let smartCount: Int64 = 4
    private static let smartPrefix = ControlAPI.PlaylistPath.prefix + String(repeating: "0", count: 31)

    /// Three playlists written by hand: names, creation times (header) and modification times in three different
    /// orders, so each ordering gives its own. Each is written whole beside the folder, then moved in, as a file
    /// manager would: the daemon never lists one half-written.
    private func writePlaylists() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let staging = daemon.home.url.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let files: [(name: String, id: String, created: Int, modified: Int)] = [
            ("beta", "bbbbbbbbbbbbbbbb", 300, 1_000), ("Alpha", "aaaaaaaaaaaaaaaa", 200, 3_000), ("gamma", "cccccccccccccccc", 100, 2_000)]
        for (index, file) in files.enumerated() {
            let url = staging.appendingPathComponent(file.name + ".m3u8")
            let text = "#EXTM3U\n#QUAVER-ID:\(file.id)\n#QUAVER-CREATED:\(file.created)\n" + uris[index...].map {
                URL(string: $0)!.path + "\n" }.joined()
            try text.write(to: url, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(file.modified))],
                                                  ofItemAtPath: url.path)
            try FileManager.default.moveItem(at: url, to: folder.appendingPathComponent(url.lastPathComponent))
        }
        daemon.waitUntil("the playlists are listed") {
            (try? daemon.get("PlaylistCount", Self.interface).int64Value) == 3 + Self.smartCount
        }
    }

    /// The names of the saved playlists GetPlaylists gives (`smart`: the smart ones too).
    private func names(_ index: UInt32, _ count: UInt32, _ order: String, reverse: Bool = false, smart: Bool = false) throws
        -> [String] {
        let reply = try daemon.call("GetPlaylists", [.uint32(index), .uint32(count), .string(order), .boolean(reverse)],
                                    on: Self.interface)
        return (reply.first?.arrayValue ?? []).compactMap { playlist in
            guard let fields = playlist.arrayValue, smart || fields[0].objectPathValue?.rawValue.hasPrefix(Self.smartPrefix) == false
            else { return nil }
            return fields[1].stringValue
        }
    }

    private func assertError(_ method: String, _ arguments: [DBusValue], _ name: String, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try daemon.call(method, arguments, on: Self.interface), file: file, line: line) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error." + name, file: file, line: line)
            guard !message.isEmpty else { return }
            XCTAssertTrue((error as? DBusError)?.message.contains(message) == true, "\(error)", file: file, line: line)
        }
    }

    private var noPlaylist: DBusValue {
        .structure([.boolean(false), .structure([.objectPath("/"), .string(""), .string("")])])
    }

    func testOrderingsPagesAndBadArguments() throws {
        XCTAssertEqual(try daemon.get("PlaylistCount", Self.interface), .uint32(UInt32(Self.smartCount)))
        XCTAssertEqual(try daemon.get("Orderings", Self.interface).stringArrayValue,
                       ["Alphabetical", "CreationDate", "ModifiedDate", "LastPlayDate"])
        XCTAssertEqual(try daemon.get("ActivePlaylist", Self.interface), noPlaylist)
        let cover = daemon.home.url.appendingPathComponent("Music/Album/cover.png")
        try FileManager.default.copyItem(at: try Media.fixtures().cover, to: cover)
        try writePlaylists()
        let listed = try daemon.call("GetPlaylists", [.uint32(0), .uint32(10), .string("Alphabetical"), .boolean(false)],
                                     on: Self.interface).first?.arrayValue?.compactMap(\.arrayValue) ?? []
        let icons = listed.filter { $0[0].objectPathValue?.rawValue.hasPrefix(Self.smartPrefix) == false }.map { $0[2].stringValue }
        XCTAssertEqual(icons, Array(repeating: cover.absoluteString, count: 3), "the cover beside the first track")

        XCTAssertEqual(try names(0, 10, "Alphabetical"), ["Alpha", "beta", "gamma"])
        XCTAssertEqual(try names(0, 10, "Alphabetical", reverse: true), ["gamma", "beta", "Alpha"])
        XCTAssertEqual(try names(0, 10, "CreationDate"), ["gamma", "Alpha", "beta"])
        XCTAssertEqual(try names(0, 10, "ModifiedDate"), ["beta", "gamma", "Alpha"])
        XCTAssertEqual(try names(0, 10, "Alphabetical", smart: true),
                       ["Alpha", "beta", "Favourites", "gamma", "Most played", "Never played", "Recently added"])
        XCTAssertEqual(try names(1, 1, "Alphabetical"), ["beta"])
        XCTAssertEqual(try names(6, .max, "Alphabetical", smart: true), ["Recently added"], "a huge MaxCount is what is there")
        XCTAssertEqual(try names(7, 10, "Alphabetical", smart: true), [], "past the end: none")
        XCTAssertEqual(try names(.max, .max, "Alphabetical", reverse: true), [])
        XCTAssertEqual(try names(0, 0, "Alphabetical"), [])

        let tracks = daemon.tracks
        assertError("GetPlaylists", [.uint32(0), .uint32(10), .string("UserDefined"), .boolean(false)], "InvalidArgs",
                    "unknown ordering")
        assertError("GetPlaylists", [.uint32(0), .uint32(10), .string(""), .boolean(false)], "InvalidArgs", "unknown ordering")
        assertError("GetPlaylists", [.uint32(0), .uint32(10)], "InvalidArgs", "")
        assertError("ActivatePlaylist", [.objectPath("/org/quaver/Playlist/ffffffffffffffff")], "InvalidArgs", "not a saved playlist")
        assertError("ActivatePlaylist", [.objectPath("/org/mpris/MediaPlayer2")], "InvalidArgs", "not a saved playlist")
        assertError("ActivatePlaylist", [.string("Alpha")], "InvalidArgs", "")
        daemon.assertIntact(tracks: tracks)
        XCTAssertEqual(try daemon.get("ActivePlaylist", Self.interface), noPlaylist)
        XCTAssertEqual(try daemon.playerctl("status"), "Stopped", "playerctl still works")
    }

    func testActivationRenameAndIdsAcrossARestart() throws {
        try writePlaylists()
        var changed: [DBusValue] = [], properties: [[String: DBusValue]] = []
        let renames = try daemon.client.subscribe(rule: MatchRule(sender: ControlAPI.busName, interface: Self.interface,
                                                                  member: "PlaylistChanged")) { changed += $0.arguments }
        let updates = try daemon.client.subscribe(rule: MatchRule(sender: ControlAPI.busName, interface: ControlAPI.propertiesInterface,
                                                                  member: "PropertiesChanged")) { signal in
            guard signal.arguments.first?.stringValue == Self.interface else { return }
            properties.append(signal.arguments[1].dictionaryValue?.mapValues(\.unwrapped) ?? [:])
        }
        defer { renames.cancel(); updates.cancel() }
        EventLoop.main.run(until: { false }, timeout: 0.2)

        let alpha = DBusValue.objectPath("/org/quaver/Playlist/aaaaaaaaaaaaaaaa")
        try daemon.call("ActivatePlaylist", [alpha], on: Self.interface)
        XCTAssertEqual(daemon.tracks.count, 2, "Alpha lists the last two files")
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        let active = DBusValue.structure([.boolean(true), .structure([alpha, .string("Alpha"), .string("")])])
        XCTAssertEqual(try daemon.get("ActivePlaylist", Self.interface), active)
        XCTAssertTrue(EventLoop.main.run(until: { properties.contains { $0["ActivePlaylist"] == active } }, timeout: 10))
        XCTAssertEqual(try names(0, 10, "LastPlayDate"), ["beta", "gamma", "Alpha"], "never played first, then by last play")

        try daemon.call("RenamePlaylist", [.string("Alpha"), .string("Zeta")], on: ControlAPI.quaverInterface)
        XCTAssertTrue(EventLoop.main.run(until: { !changed.isEmpty }, timeout: 10))
        XCTAssertEqual(changed, [.structure([alpha, .string("Zeta"), .string("")])])
        XCTAssertEqual(try names(0, 10, "Alphabetical"), ["beta", "gamma", "Zeta"])

        try daemon.call("Clear", on: ControlAPI.quaverInterface)
        XCTAssertEqual(try daemon.get("ActivePlaylist", Self.interface), noPlaylist, "the queue is no longer the playlist")

        let saved = try daemon.call("SavePlaylist", [.string("new one")], on: ControlAPI.quaverInterface).first
        let ids = try idsByName()
        XCTAssertEqual(ids["new one"].map(DBusValue.objectPath), saved)
        let home = daemon.home
        daemon = nil
        daemon = try RunningDaemon(home: home)
        daemon.waitUntil("the playlists are listed") {
            (try? daemon.get("PlaylistCount", Self.interface).int64Value) == 4 + Self.smartCount
        }
        XCTAssertEqual(try idsByName(), ids, "the same ids after a restart")
    }

    /// Prints GetPlaylists' median and slowest answer times (a page of 50 from 500 playlists, alphabetical).
    func testGetPlaylistsWithFiveHundredPlaylists() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 0..<500 {
            try "#EXTM3U\n\(URL(string: uris[number % 3])!.path)\n".write(
                to: folder.appendingPathComponent(String(format: "list %03d.m3u8", number)), atomically: false, encoding: .utf8)
        }
        daemon.waitUntil("the playlists are listed") {
            (try? daemon.get("PlaylistCount", Self.interface).int64Value) == 500 + Self.smartCount
        }
        var times: [Double] = []
        for round in 0..<200 {
            let start = Date()
            XCTAssertEqual(try names(UInt32(round % 10) * 50, 50, round % 2 == 0 ? "Alphabetical" : "ModifiedDate",
                                         smart: true).count, 50)
            times.append(Date().timeIntervalSince(start) * 1000)
        }
        times.sort()
        print(String(format: "GetPlaylists (50 of 500): p50 %.2f ms, p99 %.2f ms", times[100], times[198]))
        XCTAssertLessThan(times[100], 50)
    }

    func testSmartPlaylistsFromTheHistoryAndTheLibrary() throws {
        try daemon.call("AddTracks", [.stringArray(uris), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        try daemon.call("SetRating", [.objectPath(try ObjectPath(daemon.tracks[1])), .int32(5)],
                        on: ControlAPI.quaverInterface)
        let path = { (number: Int) in DBusValue.objectPath(try! ObjectPath(Self.smartPrefix + String(number))) }
        let tracks = daemon.tracks
        assertError("ActivatePlaylist", [path(1)], "Failed", "Most played has no tracks yet")
        daemon.assertIntact(tracks: tracks)

        try daemon.call("ActivatePlaylist", [path(2)], on: Self.interface)
        XCTAssertEqual(queuedURIs, [uris[1]], "the one favourite")
        daemon.waitUntil("playing") { daemon.status == "Playing" }
        XCTAssertEqual(try daemon.get("ActivePlaylist", Self.interface),
                       .structure([.boolean(true), .structure([path(2), .string("Favourites"), .string("")])]))

        daemon.waitUntil("the library has the three files") {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 3
        }
        try daemon.call("ActivatePlaylist", [path(3)], on: Self.interface)
        XCTAssertEqual(Set(queuedURIs), Set(uris), "recently added: the library's files")
        try daemon.call("ActivatePlaylist", [path(4)], on: Self.interface)
        XCTAssertEqual(queuedURIs, uris, "never played, in album order")
    }

    private var queuedURIs: [String] {
        let reply = try? daemon.call("GetQueue", on: ControlAPI.quaverInterface)
        return (reply?.first?.arrayValue ?? []).compactMap { $0.arrayValue?[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue }
    }

    private func idsByName() throws -> [String: ObjectPath] {
        let reply = try daemon.call("GetPlaylists", [.uint32(0), .uint32(100), .string("Alphabetical"), .boolean(false)],
                                    on: Self.interface)
        var ids: [String: ObjectPath] = [:]
        for playlist in reply.first?.arrayValue ?? [] {
            guard let fields = playlist.arrayValue, let path = fields[0].objectPathValue, let name = fields[1].stringValue,
                  !path.rawValue.hasPrefix(Self.smartPrefix) else { continue }
            ids[name] = path
        }
        return ids
    }
}
