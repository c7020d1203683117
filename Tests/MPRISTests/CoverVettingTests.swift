import CoverArt
import Foundation
import Glibc
@testable import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// What may be advertised as `mpris:artUrl`: folder covers vetted, embedded covers bounded in pixels, and
/// the art cache written without following links and kept within its size.
final class CoverVettingTests: XCTestCase {
    func testAFolderCoverIsAdvertisedOnlyIfItIsARegularImageFileOfBoundedSize() throws {
        let top = try TemporaryDirectory(prefix: "covers")
        let secret = top.url.appendingPathComponent("secret")
        try Data(ImageHeaders.png(width: 4, height: 4)).write(to: secret)
        let album = top.url.appendingPathComponent("unpacked/album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let artwork = ArtworkCache(directory: top.url.appendingPathComponent("art"), folderListingLifetime: 0)
        let trackURI = album.appendingPathComponent("01.flac").absoluteString
        func cover(_ name: String) -> URL { album.appendingPathComponent(name) }

        try FileManager.default.createSymbolicLink(atPath: cover("cover.jpg").path, withDestinationPath: "../../secret")
        XCTAssertNil(artwork.artURL(trackURI: trackURI, embedded: nil), "a link is refused even to an image")
        try Data("ssh-ed25519 AAAA secret\n".utf8).write(to: cover("folder.jpg"))
        XCTAssertNil(artwork.artURL(trackURI: trackURI, embedded: nil), "text named folder.jpg")
        try Data(ImageHeaders.png(width: 20_000, height: 20_000)).write(to: cover("front.png"))
        XCTAssertNil(artwork.artURL(trackURI: trackURI, embedded: nil), "a 20 000 × 20 000 PNG header")
        try Data(ImageHeaders.png(width: 600, height: 600)).write(to: cover("album.png"))
        XCTAssertEqual(artwork.artURL(trackURI: trackURI, embedded: nil), cover("album.png").absoluteString,
                       "the first name in order of preference that passes")
    }

    func testAnEmbeddedCoverWithTooManyPixelsIsNeitherWrittenNorAdvertised() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        let artwork = ArtworkCache(directory: cache.url)
        let huge = CoverImage(data: ImageHeaders.png(width: 20_000, height: 20_000), mimeType: "image/png")
        XCTAssertNil(artwork.artURL(trackURI: "file:///nowhere/a.flac", embedded: huge))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path), [])
    }

    /// The cover's temporary name used to be `.<name>.<pid>.tmp`: a link planted there made the daemon
    /// write the image through it, over the link's target. A link at the final name was advertised as is.
    func testLinksPlantedAtACoversNamesAreNeverWrittenThroughNorAdvertised() throws {
        let top = try TemporaryDirectory(prefix: "art")
        let cache = top.url.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
        let victim = top.url.appendingPathComponent("victim")
        try Data("precious\n".utf8).write(to: victim)
        let artwork = ArtworkCache(directory: cache)
        for (index, plantedAt) in ["temporary", "final"].enumerated() {
            let image = ImageHeaders.png(width: 300 + index, height: 300)
            let name = ArtworkCache.contentName(of: CoverImage(data: image, mimeType: "image/png")) + ".png"
            let link = plantedAt == "final" ? name : ".\(name).\(getpid()).tmp"
            try FileManager.default.createSymbolicLink(atPath: cache.appendingPathComponent(link).path,
                                                       withDestinationPath: victim.path)
            let url = try XCTUnwrap(artwork.artURL(trackURI: "file:///x/a.flac",
                                                   embedded: CoverImage(data: image, mimeType: "image/png")))
            XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious\n", "a link at the \(plantedAt) name")
            let written = try XCTUnwrap(URL(string: url))
            XCTAssertNil(try FileManager.default.destinationOfSymbolicLinkIfPresent(written), plantedAt)
            XCTAssertEqual([UInt8](try Data(contentsOf: written)), image, plantedAt)
        }
    }

    func testTheArtCacheRemovesTheOldestCoversButNeverTheLatest() throws {
        let cache = try TemporaryDirectory(prefix: "art")
        let coverBytes = 100_000
        let artwork = ArtworkCache(directory: cache.url, maximumBytes: 5 * coverBytes)
        let covers = (1...8).map { CoverImage(data: Self.image(width: $0, bytes: coverBytes), mimeType: "image/png") }
        let urls = try covers.map { try XCTUnwrap(artwork.artURL(trackURI: "file:///x/a.flac", embedded: $0)) }
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        XCTAssertEqual(Set(kept), Set(urls.suffix(5).compactMap { URL(string: $0)?.lastPathComponent }),
                       "the three oldest removed")
        XCTAssertTrue(artwork.isPresent(urls[7]))
        XCTAssertFalse(artwork.isPresent(urls[0]))

        // A cover advertised again is the newest; the protected ones stay even past the limit.
        _ = artwork.artURL(trackURI: "file:///x/a.flac", embedded: covers[3])
        let small = ArtworkCache(directory: cache.url, maximumBytes: 1)
        for cover in covers.suffix(2) { _ = small.artURL(trackURI: "file:///x/a.flac", embedded: cover) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path).count, 2,
                       "only the covers just handed out by this cache are left")
    }

    /// Covers planted in an art folder others can write to would be advertised as ours: such a folder, a link
    /// in its place or another user's folder is not used (embedded covers are then not shown).
    func testAnArtFolderThatIsNotOursAloneIsNotUsed() throws {
        let top = try TemporaryDirectory(prefix: "art")
        let cover = CoverImage(data: ImageHeaders.png(width: 300, height: 300), mimeType: "image/png")
        let shared = top.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(shared.path, 0o777), 0)
        let elsewhere = top.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let linked = top.url.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: elsewhere)
        var refused = [shared, linked]
        if geteuid() == 0 {
            let foreign = top.url.appendingPathComponent("foreign")
            try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
            XCTAssertEqual(chown(foreign.path, 65534, 65534), 0)
            refused.append(foreign)
        }
        for folder in refused {
            XCTAssertNil(ArtworkCache(directory: folder).artURL(trackURI: "file:///x/a.flac", embedded: cover), folder.path)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared.path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])

        let loose = top.url.appendingPathComponent("loose")
        try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(loose.path, 0o755), 0)
        XCTAssertNotNil(ArtworkCache(directory: loose).artURL(trackURI: "file:///x/a.flac", embedded: cover))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: loose.path)[.posixPermissions] as? Int, 0o700,
                       "ours and readable by others: made private")
    }

    /// A PNG header announcing `width` pixels, padded to `bytes`.
    private static func image(width: Int, bytes: Int) -> [UInt8] {
        let header = ImageHeaders.png(width: width, height: 1)
        return header + [UInt8](repeating: 0, count: bytes - header.count)
    }
}

private extension FileManager {
    func destinationOfSymbolicLinkIfPresent(_ url: URL) throws -> String? {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        return try destinationOfSymbolicLink(atPath: url.path)
    }
}
