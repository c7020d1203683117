import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// Covers beside the track as an archive may bring them, against the real quaverd and the real Snapcast
/// plugin: `cover.jpg -> ../../secret`, text named `cover.jpg`, a PNG header announcing 20 000 × 20 000 pixels.
/// None is advertised as `mpris:artUrl`, none reaches snapserver as `artData`; a real cover still does.
final class FolderCoverTests: XCTestCase {
    static let secretText = "-----BEGIN OPENSSH PRIVATE KEY-----\ntest key, not for the network\n"

    func testLinkedTextAndHugeFolderCoversAreNeitherAdvertisedNorSent() throws {
        let top = try TemporaryDirectory(prefix: "covers")
        let secret = top.url.appendingPathComponent("secret")
        try Data(Self.secretText.utf8).write(to: secret)
        let linked = try album(in: top, "unpacked/linked") {
            try FileManager.default.createSymbolicLink(atPath: $0.appendingPathComponent("cover.jpg").path,
                                                       withDestinationPath: "../../secret")
        }
        let text = try album(in: top, "unpacked/text") {
            try Data("just some text\n".utf8).write(to: $0.appendingPathComponent("cover.jpg"))
        }
        let huge = try album(in: top, "unpacked/huge") {
            try Data(ImageHeaders.png(width: 20_000, height: 20_000)).write(to: $0.appendingPathComponent("folder.png"))
        }
        let coverPNG = Data(try Fixtures.shared().coverBytes)
        let good = try album(in: top, "good") { try coverPNG.write(to: $0.appendingPathComponent("cover.png")) }
        let daemon = try RunningDaemon([linked, text, huge, good].map(\.path))
        let plugin = try PluginProcess(busAddress: daemon.bus.address)
        defer { plugin.stop() }

        for (index, path) in daemon.tracks.enumerated() {
            try daemon.call("GoTo", [.objectPath(try ObjectPath(path))], on: ControlAPI.trackListInterface)
            daemon.waitUntil("track \(index) current") { daemon.currentTrack == path }
            var sent: [String: Any] = [:]
            XCTAssertTrue(plugin.waitFor { message in
                sent = (message["params"] as? [String: Any])?["metadata"] as? [String: Any] ?? [:]
                return sent["trackId"] as? String == path
            }, "the plugin sent track \(index)")
            if index < 3 {
                XCTAssertNil(daemon.metadata["mpris:artUrl"], "track \(index) advertised a cover")
                XCTAssertNil(sent["artData"], "track \(index): the plugin sent a cover")
            } else {
                XCTAssertEqual(daemon.metadata["mpris:artUrl"]?.stringValue,
                               good.deletingLastPathComponent().appendingPathComponent("cover.png").absoluteString)
                XCTAssertEqual((sent["artData"] as? [String: Any])?["data"] as? String, coverPNG.base64EncodedString())
            }
        }
        XCTAssertTrue(daemon.process.standardError.contains("cover.jpg: a symbolic link"), daemon.logTail)
        daemon.assertIntact(tracks: daemon.tracks)
    }

    /// The plugin checks again what it sends: a cover quaverd vetted and advertised, then replaced by a link
    /// to the secret before the plugin reads it, is not sent.
    func testThePluginSendsNoCoverReplacedByALinkAfterQuaverdVettedIt() throws {
        let top = try TemporaryDirectory(prefix: "covers")
        try Data(Self.secretText.utf8).write(to: top.url.appendingPathComponent("secret"))
        let cover = top.url.appendingPathComponent("album/cover.jpg")
        let track = try album(in: top, "album") { _ in try Data(ImageHeaders.jpeg(width: 500, height: 500)).write(to: cover) }
        let daemon = try RunningDaemon([track.path])
        daemon.waitUntil("the cover advertised") { daemon.metadata["mpris:artUrl"]?.stringValue == cover.absoluteString }
        try FileManager.default.removeItem(at: cover)
        try FileManager.default.createSymbolicLink(atPath: cover.path, withDestinationPath: "../secret")
        XCTAssertEqual(daemon.metadata["mpris:artUrl"]?.stringValue, cover.absoluteString, "still advertised: the race")

        let plugin = try PluginProcess(busAddress: daemon.bus.address)
        defer { plugin.stop() }
        var sent: [String: Any] = [:]
        XCTAssertTrue(plugin.waitFor { message in
            sent = (message["params"] as? [String: Any])?["metadata"] as? [String: Any] ?? [:]
            return sent["title"] != nil
        }, "the plugin sent the track")
        XCTAssertNil(sent["artData"], "the plugin sent what the link points at")
        XCTAssertNil(sent["artUrl"], "a file: URL means nothing to Snapweb")
    }

    /// A folder `name` under `top` holding a copy of the fixtures' Ogg Vorbis track (no embedded cover), after
    /// `prepare` ran on the folder; returns the track.
    private func album(in top: TemporaryDirectory, _ name: String, _ prepare: (URL) throws -> Void) throws -> URL {
        let folder = top.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let track = folder.appendingPathComponent("01 track.ogg")
        try FileManager.default.copyItem(at: try Fixtures.shared().vorbis, to: track)
        try prepare(folder)
        return track
    }
}

/// The art cache as the daemon writes it: a link planted at the temporary name quaverd used to write an
/// embedded cover at (`.<name>.<pid>.tmp` in the art folder) is not written through.
final class ArtCacheTests: XCTestCase {
    func testALinkAtTheCoversOldTemporaryNameIsNotWrittenThrough() throws {
        let fixtures = try Fixtures.shared()
        let name = try Self.artName(of: fixtures.flac)
        let daemon = try RunningDaemon()
        let victim = daemon.home.url.appendingPathComponent("victim")
        try Data("precious\n".utf8).write(to: victim)
        try FileManager.default.createDirectory(at: daemon.artDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: daemon.artDirectory.appendingPathComponent(".\(name).\(daemon.process.pid).tmp").path,
            withDestinationPath: victim.path)

        try daemon.call("OpenUri", [.string(fixtures.flac.absoluteString)])
        let art = daemon.artDirectory.appendingPathComponent(name)
        daemon.waitUntil("the embedded cover advertised") { daemon.metadata["mpris:artUrl"]?.stringValue == art.absoluteString }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious\n", "written through the link")
        XCTAssertEqual([UInt8](try Data(contentsOf: art)), fixtures.coverBytes)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: art.path)[.type] as? FileAttributeType, .typeRegular)
    }

    /// The name quaverd gives the embedded cover of `track` in its art cache, learnt from a daemon of its own.
    /// Until the track's tags are read, the fixtures' cover.png beside it is advertised: only a URL in the
    /// art cache names the embedded cover.
    private static func artName(of track: URL) throws -> String {
        let daemon = try RunningDaemon([track.path])
        var url: URL?
        daemon.waitUntil("the embedded cover advertised") {
            url = daemon.metadata["mpris:artUrl"]?.stringValue.flatMap(URL.init(string:))
            return url?.deletingLastPathComponent().path == daemon.artDirectory.path
        }
        return try XCTUnwrap(url?.lastPathComponent)
    }
}
