import DBus
import Foundation
import PlayerCore
import PublicText
@testable import MPRIS
import TestSupport
import XCTest

/// The Metadata map and the artwork it points to, without a bus.
final class MetadataTests: XCTestCase {
    private let png = ImageHeaders.png(width: 600, height: 600)

    func testTagsMapToTheSpecTypes() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        var tags = TrackTags()
        tags.title = "Song\0"
        tags.artists = ["A", "B"]
        tags.albumArtists = ["C"]
        tags.genres = ["Jazz"]
        tags.album = "Album"
        tags.trackNumber = 3
        tags.discNumber = 2
        let track = Track(id: TrackID(7), uri: "https://example.org/x.mp3", tags: tags, duration: .milliseconds(1500))
        let metadata = MetadataMap(artwork: ArtworkCache(directory: cache.url)).metadata(of: track)
        XCTAssertEqual(metadata["mpris:trackid"], .objectPath("/org/quaver/Track/7"))
        XCTAssertEqual(metadata["mpris:length"], .int64(1_500_000))
        XCTAssertEqual(metadata["xesam:title"], .string("Song"), "NUL removed: a D-Bus string cannot hold it")
        XCTAssertEqual(metadata["xesam:artist"], .stringArray(["A", "B"]))
        XCTAssertEqual(metadata["xesam:albumArtist"], .stringArray(["C"]))
        XCTAssertEqual(metadata["xesam:genre"], .stringArray(["Jazz"]))
        XCTAssertEqual(metadata["xesam:trackNumber"], .int32(3))
        XCTAssertEqual(metadata["xesam:discNumber"], .int32(2))
        XCTAssertEqual(metadata["xesam:url"], .string("https://example.org/x.mp3"))
        XCTAssertNil(metadata["mpris:artUrl"], "no artwork: no artUrl")
    }

    func testUntaggedTrackIsTitledByItsFileName() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        let track = Track(id: TrackID(1), uri: "file:///music/01%20Intro.flac")
        let metadata = MetadataMap(artwork: ArtworkCache(directory: cache.url)).metadata(of: track)
        XCTAssertEqual(metadata["xesam:title"], .string("01 Intro"))
        XCTAssertNil(metadata["mpris:length"], "unknown length is left out")
    }

    func testEmbeddedCoverIsWrittenOnceByContentAndFolderCoverIsTheFallback() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        let music = try TemporaryDirectory(prefix: "music")
        try Data(ImageHeaders.jpeg(width: 500, height: 500)).write(to: music.url.appendingPathComponent("Cover.JPG"))
        let artwork = ArtworkCache(directory: cache.url)
        let trackURI = music.url.appendingPathComponent("a.flac").absoluteString
        XCTAssertEqual(artwork.artURL(trackURI: trackURI, embedded: nil),
                       music.url.appendingPathComponent("Cover.JPG").absoluteString)
        let first = try XCTUnwrap(artwork.artURL(trackURI: trackURI, embedded: CoverImage(data: png, mimeType: "image/png")))
        let again = artwork.artURL(trackURI: "file:///elsewhere/b.flac", embedded: CoverImage(data: png, mimeType: "image/png"))
        XCTAssertEqual(first, again, "the same image keeps its URL")
        XCTAssertEqual([UInt8](try Data(contentsOf: try XCTUnwrap(URL(string: first)))), png)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path).count, 1)
        let other = artwork.artURL(trackURI: trackURI, embedded: CoverImage(data: png + [9], mimeType: "image/png"))
        XCTAssertNotEqual(first, other, "a new image gets a new URL")
        XCTAssertNil(artwork.artURL(trackURI: "file:///nowhere/c.flac", embedded: nil))
    }

    func testOnlyImagesOfABoundedSizeAreWrittenWithTheExtensionOfWhatTheyAre() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        let artwork = ArtworkCache(directory: cache.url)
        let trackURI = "file:///nowhere/a.flac"
        let text = CoverImage(data: Array("<html>not an image</html>".utf8), mimeType: "image/png")
        XCTAssertNil(artwork.artURL(trackURI: trackURI, embedded: text), "not an image: not written, no artUrl")
        let huge = CoverImage(data: png + [UInt8](repeating: 0, count: CoverImage.maximumByteCount), mimeType: "image/png")
        XCTAssertNil(artwork.artURL(trackURI: trackURI, embedded: huge))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path), [])
        let jpeg = CoverImage(data: ImageHeaders.jpeg(width: 500, height: 500), mimeType: "image/png")
        let url = try XCTUnwrap(artwork.artURL(trackURI: trackURI, embedded: jpeg))
        XCTAssertTrue(url.hasSuffix(".jpg"), "named by its bytes, not by the tag's MIME type: \(url)")
    }

    func testCredentialsAreMaskedAndHostileTagsBounded() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        var tags = TrackTags()
        tags.album = String(repeating: "A", count: 1 << 20)
        tags.artists = (0..<10_000).map { "Artist \($0)" }
        let secret = Track(id: TrackID(1), uri: "http://alice:s3cret@127.0.0.1:9/", tags: tags)
        let metadata = MetadataMap(artwork: ArtworkCache(directory: cache.url)).metadata(of: secret)
        XCTAssertEqual(metadata["xesam:url"], .string("http://***@127.0.0.1:9/"))
        XCTAssertEqual(metadata["xesam:title"], .string("127.0.0.1:9"))
        XCTAssertEqual(metadata["xesam:album"]?.stringValue?.utf8.count, PublicText.maximumUTF8Count)
        XCTAssertEqual(metadata["xesam:artist"]?.stringArrayValue?.count, PublicText.maximumListCount)
        XCTAssertFalse("\(metadata)".contains("s3cret") || "\(metadata)".contains("alice"))
    }

    func testFolderListingsAreReusedForTheirLifetime() throws {
        let music = try TemporaryDirectory(prefix: "music")
        let trackURI = music.url.appendingPathComponent("a.flac").absoluteString
        let remembering = ArtworkCache(directory: music.url, folderListingLifetime: 3600)
        let fresh = ArtworkCache(directory: music.url, folderListingLifetime: 0)
        XCTAssertNil(remembering.artURL(trackURI: trackURI, embedded: nil))
        try Data(ImageHeaders.png(width: 1, height: 1)).write(to: music.url.appendingPathComponent("folder.png"))
        XCTAssertNil(remembering.artURL(trackURI: trackURI, embedded: nil), "the listing is reused")
        XCTAssertEqual(fresh.artURL(trackURI: trackURI, embedded: nil),
                       music.url.appendingPathComponent("folder.png").absoluteString)
    }

    func testTrackPathsRoundTripAndRefuseForeignPaths() {
        XCTAssertEqual(TrackPath.id(of: TrackPath.path(of: TrackID(42))), TrackID(42))
        XCTAssertNil(TrackPath.id(of: TrackPath.noTrack))
        XCTAssertNil(TrackPath.id(of: "/org/quaver/Track/x"))
        XCTAssertNil(TrackPath.id(of: "/org/quaver/Track/1/2"))
    }

    func testMicrosecondsSaturate() {
        XCTAssertEqual(Duration.seconds(Int64.max).microseconds, .max)
        XCTAssertEqual(Duration.seconds(Int64.min).microseconds, .min)
        XCTAssertEqual(Duration.microseconds(-1_500).microseconds, -1_500)
    }
}
