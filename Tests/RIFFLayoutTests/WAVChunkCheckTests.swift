import Foundation
import RIFFLayout
import XCTest

/// The walk over files held in memory, laid out byte by byte; the lengths past the bytes given read as zeros
/// (a sparse file). The layouts that abort wavparse were each tried with `gst-launch-1.0 filesrc ! wavparse`.
final class WAVChunkCheckTests: XCTestCase {
    private static let gib: UInt64 = 1 << 30

    /// RIFF header and a 16-byte `fmt ` chunk (1 s of 22 050 Hz mono 16-bit would follow).
    private static let head: [UInt8] = Array("RIFF".utf8) + le32(0xffff_ffff) + Array("WAVEfmt ".utf8) + le32(16)
        + [1, 0, 1, 0] + le32(22_050) + le32(44_100) + [2, 0, 16, 0]

    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static func chunk(_ tag: String, _ size: UInt32) -> [UInt8] { Array(tag.utf8) + le32(size) }

    private func hazard(_ bytes: [UInt8], length: UInt64? = nil) -> WAVHazard? {
        WAVChunkCheck.hazard(length: length ?? UInt64(bytes.count)) { offset, count, _ in
            (0..<UInt64(count)).map { offset + $0 < bytes.count ? bytes[Int(offset + $0)] : 0 }
        }
    }

    func testAChunkAfterASizedDataChunkClaimingTooMuchIsFound() throws {
        let data = Self.head + Self.chunk("data", 44_100) + [UInt8](repeating: 0, count: 44_100)
        let found = try XCTUnwrap(hazard(data + Self.chunk("junk", 0xffff_ffff), length: 3 * Self.gib))
        XCTAssertEqual([found.tag, "\(found.offset)", "\(found.declaredSize)", "\(found.tooManyChunks)"],
                       ["junk", "\(data.count)", "4294967295", "false"])
        XCTAssertNotNil(hazard(data + Self.chunk("junk", 0x7fff_ffff), length: 3 * Self.gib), "exactly MAX_CHUNK_SIZE aborts too")
    }

    func testTheFileMustReachPastTheClaimedSize() {
        let data = Self.head + Self.chunk("data", 44_100) + [UInt8](repeating: 0, count: 44_100)
        let edge = UInt64(data.count) + 8 + 0x7fff_ffff
        XCTAssertNotNil(hazard(data + Self.chunk("junk", 0xffff_ffff), length: edge), "aborts at exactly this length")
        XCTAssertNil(hazard(data + Self.chunk("junk", 0xffff_ffff), length: edge - 1), "wavparse clips the size to the file")
        XCTAssertNil(hazard(data + Self.chunk("junk", 0x7fff_fffe), length: edge - 1), "one byte less is skipped")
        XCTAssertNil(hazard(data + Self.chunk("junk", 0xffff_ffff) + [0]), "a small file is clipped")
    }

    /// A data chunk of 0xffffffff bytes is skipped as 0x7fffffff: the audio there is read as a chunk header.
    func testAStreamedWAVLongerThan2GiBIsReadOnInItsAudio() {
        let head = Self.head + Self.chunk("data", 0xffff_ffff)
        let inAudio = UInt64(head.count) + 0x7fff_ffff
        let header = [0x10, 0x20, 0x30, 0x40] + Self.le32(0xffff_ffff)
        let found = WAVChunkCheck.hazard(length: 5 * Self.gib) { offset, count, _ in
            if offset == inAudio { return Array(header.prefix(count)) }
            return (0..<UInt64(count)).map { offset + $0 < head.count ? head[Int(offset + $0)] : 0 }
        }
        XCTAssertEqual(found?.offset, inAudio)
    }

    func testAChunkBeforeTheDataIsFoundToo() {
        XCTAssertEqual(hazard(Self.head + Self.chunk("junk", 0xffff_ffff), length: 3 * Self.gib)?.offset, 36)
    }

    /// id3demux and apedemux hand wavparse what follows their tag (both aborted under playbin with gst-launch).
    func testAWAVBehindID3v2OrAPEv2TagsIsWalked() {
        let wav = Self.head + Self.chunk("data", 2) + [0, 0] + Self.chunk("junk", 0xffff_ffff)
        let id3 = Array("ID3".utf8) + [3, 0, 0x10, 0, 0, 1, 0] + [UInt8](repeating: 0, count: 128 + 10)
        XCTAssertEqual(hazard(id3 + wav, length: 3 * Self.gib)?.offset, UInt64(id3.count + 46), "ID3v2 with a footer")
        let apeItem = Self.le32(5) + Self.le32(0) + Array("Title".utf8) + [0] + Array("hello".utf8)
        let apeSize = UInt32(32 + apeItem.count)
        let ape = Array("APETAGEX".utf8) + Self.le32(2000) + Self.le32(apeSize) + Self.le32(1) + Self.le32(0xa000_0000)
            + [UInt8](repeating: 0, count: 8) + apeItem + Array("APETAGEX".utf8) + Self.le32(2000) + Self.le32(apeSize)
            + Self.le32(1) + Self.le32(0x8000_0000) + [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(hazard(ape + id3 + wav, length: 3 * Self.gib)?.offset, UInt64(ape.count + id3.count + 46),
                       "APEv2, then ID3v2")
        XCTAssertNil(hazard(Array("ID3".utf8) + [3, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f] + wav), "a tag running past the file")
    }

    func testValidLayoutsPass() {
        let audio = [UInt8](repeating: 7, count: 1001)
        let tail = Self.chunk("LIST", 12) + Array("INFOINAM".utf8) + Self.le32(0) + Self.chunk("id3 ", 3) + [1, 2, 3, 0]
        XCTAssertNil(hazard(Self.head + Self.chunk("data", 1001) + audio + tail), "LIST and id3 after odd-sized data")
        XCTAssertNil(hazard(Self.head + Self.chunk("data", 0), length: 10 * Self.gib), "a data chunk of size 0 runs to the end")
        XCTAssertNil(hazard(Self.head + Self.chunk("data", 0xffff_ffff) + audio), "a streamed WAV's size is clipped to the file")
    }

    func testOtherFilesAreNotWalked() {
        XCTAssertNil(hazard(Array("fLaC".utf8) + [UInt8](repeating: 0xff, count: 100), length: 3 * Self.gib))
        XCTAssertNil(hazard(Array("RIFF".utf8) + Self.le32(4) + Array("AVI ".utf8) + Self.chunk("junk", 0xffff_ffff), length: 3 * Self.gib))
        XCTAssertNil(hazard(Array("RIFF".utf8)))
    }

    func testAFileOfEmptyChunksStopsAtTheLimit() {
        let data = Self.head + Self.chunk("data", 2) + [0, 0]
        let found = hazard(data, length: 10 * Self.gib)
        XCTAssertEqual(found?.tooManyChunks, true, "8-byte chunks of zeros to the end of 10 GB")
        XCTAssertEqual(found?.offset, UInt64(data.count) + 8 * UInt64(WAVChunkCheck.chunkLimit - 2))
    }

    func testAnUnreadableHeaderStopsTheWalk() {
        let bytes = Self.head + Self.chunk("data", 2) + [0, 0]
        XCTAssertNil(WAVChunkCheck.hazard(length: 3 * Self.gib) { offset, count, _ in
            offset + UInt64(count) <= UInt64(bytes.count) ? Array(bytes[Int(offset)..<Int(offset) + count]) : nil
        })
    }

    func testALocalFileIsWalkedAndAFIFOIsLeftAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wav-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("hostile.wav")
        let data = Self.head + Self.chunk("data", 2) + [0, 0]
        try Data(data + Self.chunk("junk", 0xffff_ffff)).write(to: wav)
        let handle = try FileHandle(forWritingTo: wav)
        try handle.truncate(atOffset: 3 * Self.gib)
        try handle.close()
        XCTAssertEqual(WAVChunkCheck.hazard(inFileAt: wav.path)?.offset, UInt64(data.count))
        let fifo = folder.appendingPathComponent("fifo.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertNil(WAVChunkCheck.hazard(inFileAt: fifo.path), "returns at once: no writer is waited for")
        XCTAssertNil(WAVChunkCheck.hazard(inFileAt: folder.path), "a folder")
        XCTAssertNil(WAVChunkCheck.hazard(inFileAt: folder.appendingPathComponent("missing.wav").path))
    }
}
