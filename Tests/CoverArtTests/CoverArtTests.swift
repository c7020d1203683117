@testable import CoverArt
import Foundation
import Glibc
import TestSupport
import XCTest

/// Image headers read without decoding, and cover files opened only as regular files, never through a link.
final class ImageHeaderTests: XCTestCase {
    func testEveryFormatGivesItsSizeFromItsHeader() {
        let samples: [([UInt8], ImageFormat)] = [
            (ImageHeaders.png(width: 600, height: 500), .png), (ImageHeaders.jpeg(width: 600, height: 500), .jpg),
            (ImageHeaders.gif(width: 600, height: 500), .gif), (ImageHeaders.webP(width: 600, height: 500), .webp),
            (ImageHeaders.bmp(width: 600, height: -500), .bmp),
        ]
        for (bytes, format) in samples {
            XCTAssertEqual(ImageHeader(reading: bytes), ImageHeader(format: format, width: 600, height: 500), "\(format)")
        }
        let vp8X = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
            + [0x57, 0x02, 0x00, 0xF3, 0x01, 0x00]
        XCTAssertEqual(ImageHeader(reading: vp8X), ImageHeader(format: .webp, width: 600, height: 500))
        var vp8 = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0, 0, 0, 0, 0, 0, 0]
        vp8 += [0x9D, 0x01, 0x2A, 0x58, 0x02, 0xF4, 0x01]
        XCTAssertEqual(ImageHeader(reading: vp8), ImageHeader(format: .webp, width: 600, height: 500))
        XCTAssertNil(ImageFormat(magic: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)), "RIFF but a WAV")
        XCTAssertEqual(ImageFormat(magic: Array("GIF87a".utf8)), .gif)
    }

    func testAJPEGFrameHeaderIsFoundPastLargeMetadataAndDamagedSegmentsAreRefused() {
        let withExif = ImageHeaders.jpeg(width: 3000, height: 3000, metadataBytes: 60_000)
        XCTAssertEqual(ImageHeader(reading: withExif)?.width, 3000)
        let cut = Array(withExif.prefix(30_000))
        XCTAssertNil(ImageHeader(reading: cut), "cut before its frame header")
        let zeroLength: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0xFF, 0xC0]
        XCTAssertNil(ImageHeader(reading: zeroLength), "a segment length below 2")
        let scanFirst: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
        XCTAssertNil(ImageHeader(reading: scanFirst), "scan data before any frame header")
        let endless = [0xFF, 0xD8] + (0..<5000).flatMap { _ in [UInt8]([0xFF, 0xFE, 0, 2]) }
            + ImageHeaders.jpeg(width: 8, height: 8).dropFirst(2)
        XCTAssertNil(ImageHeader(reading: endless), "more segments than a real file has")
    }

    func testWhatIsNotAnImageOrAnnouncesTooManyPixelsIsRefused() {
        XCTAssertEqual(CoverFile.vetted(Array("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8)), .failure(.notAnImage))
        XCTAssertEqual(CoverFile.vetted(Array(ImageHeaders.png(width: 10, height: 10).prefix(20))), .failure(.notAnImage),
                       "a header cut short")
        XCTAssertEqual(CoverFile.vetted(ImageHeaders.png(width: 0, height: 10)), .failure(.notAnImage), "no pixels")
        XCTAssertEqual(CoverFile.vetted(ImageHeaders.png(width: 20_000, height: 20_000)),
                       .failure(.tooManyPixels(width: 20_000, height: 20_000)))
        XCTAssertEqual(CoverFile.vetted(ImageHeaders.jpeg(width: 100, height: 65_000)),
                       .failure(.tooManyPixels(width: 100, height: 65_000)))
        XCTAssertEqual(CoverFile.vetted(ImageHeaders.bmp(width: 10, height: Int(Int32.min))),
                       .failure(.tooManyPixels(width: 10, height: 2_147_483_648)))
        XCTAssertEqual(try CoverFile.vetted(ImageHeaders.png(width: 8192, height: 8192)).get().width, 8192)
        XCTAssertEqual(CoverFile.vetted(ImageHeaders.gif(width: 1, height: 1, frameWidth: 20_000, frameHeight: 2)),
                       .failure(.tooManyPixels(width: 20_000, height: 2)), "a small screen with a huge first frame")
        XCTAssertEqual(CoverFile.vetted(Array(ImageHeaders.gif(width: 10, height: 10).prefix(24))), .failure(.notAnImage),
                       "a GIF cut before its first frame")
    }
}

final class CoverFileTests: XCTestCase {
    func testOnlyRegularImageFilesWithinTheLimitsAreRead() throws {
        let folder = try TemporaryDirectory(prefix: "covers")
        let secret = folder.url.appendingPathComponent("secret")
        try Data(ImageHeaders.png(width: 4, height: 4)).write(to: secret)
        let album = folder.url.appendingPathComponent("album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: false)
        func path(_ name: String) -> String { album.appendingPathComponent(name).path }
        try FileManager.default.createSymbolicLink(atPath: path("cover.jpg"), withDestinationPath: "../secret")
        try Data("just text\n".utf8).write(to: URL(fileURLWithPath: path("text.jpg")))
        try Data(ImageHeaders.png(width: 20_000, height: 20_000)).write(to: URL(fileURLWithPath: path("huge.png")))
        try Data(ImageHeaders.png(width: 600, height: 600)).write(to: URL(fileURLWithPath: path("good.png")))
        XCTAssertEqual(mkfifo(path("fifo.png"), 0o600), 0)

        XCTAssertEqual(CoverFile.header(at: path("cover.jpg"), maximumBytes: 1 << 20), .failure(.symbolicLink),
                       "refused although its target is an image")
        XCTAssertEqual(CoverFile.header(at: path("text.jpg"), maximumBytes: 1 << 20), .failure(.notAnImage))
        XCTAssertEqual(CoverFile.header(at: path("huge.png"), maximumBytes: 1 << 20),
                       .failure(.tooManyPixels(width: 20_000, height: 20_000)))
        XCTAssertEqual(CoverFile.header(at: path("fifo.png"), maximumBytes: 1 << 20), .failure(.notARegularFile),
                       "a named pipe is refused at once, not waited on")
        XCTAssertEqual(CoverFile.header(at: album.path, maximumBytes: 1 << 20), .failure(.notARegularFile))
        XCTAssertEqual(CoverFile.header(at: path("missing.png"), maximumBytes: 1 << 20), .failure(.unreadable(errno: ENOENT)))
        XCTAssertEqual(CoverFile.header(at: path("good.png"), maximumBytes: 10), .failure(.tooLarge(bytes: 57)))
        XCTAssertEqual(try CoverFile.header(at: path("good.png"), maximumBytes: 1 << 20).get(),
                       ImageHeader(format: .png, width: 600, height: 600))
        let contents = try CoverFile.contents(at: path("good.png"), maximumBytes: 1 << 20).get()
        XCTAssertEqual(contents.bytes, ImageHeaders.png(width: 600, height: 600))
    }
}
