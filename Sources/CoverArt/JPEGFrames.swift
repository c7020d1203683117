/// The size of a JPEG image, from its first frame header (SOF0…SOF15 but DHT, JPG and DAC), found by walking
/// the marker segments from the start of the file: each names its length, so metadata (Exif, ICC profiles,
/// thumbnails) is skipped without being read.
struct JPEGFrames<Bytes: ImageBytes> {
    let bytes: Bytes

    init(_ bytes: Bytes) {
        self.bytes = bytes
    }

    /// A hostile file could hold millions of tiny segments; real ones have a few dozen before the frame.
    static var maximumSegments: Int { 4096 }

    var size: (width: Int, height: Int)? {
        var offset = 2  // after SOI (FF D8)
        for _ in 0..<Self.maximumSegments {
            let marker = bytes.read(at: offset, count: 4)
            guard marker.count == 4, marker[0] == 0xFF else { return nil }
            switch marker[1] {
            case 0xFF: offset += 1  // fill byte before a marker
            case 0x01, 0xD0...0xD7: offset += 2  // markers without a length
            case 0xD8, 0xD9, 0xDA: return nil  // a second SOI, the end, or scan data before any frame header
            case let type where Self.isFrameHeader(type): return frameSize(at: offset + 4)
            default:
                let length = marker.bigEndian(at: 2, count: 2)  // counts its own two bytes
                guard length >= 2 else { return nil }
                offset += 2 + length
            }
        }
        return nil
    }

    /// SOF0–SOF15 are C0–CF except C4 (DHT), C8 (JPG) and CC (DAC).
    private static func isFrameHeader(_ type: UInt8) -> Bool {
        (0xC0...0xCF).contains(type) && ![0xC4, 0xC8, 0xCC].contains(type)
    }

    /// A frame header: sample precision (1 byte), then height and width (2 bytes each, big-endian).
    private func frameSize(at offset: Int) -> (width: Int, height: Int)? {
        let frame = bytes.read(at: offset, count: 5)
        guard frame.count == 5 else { return nil }
        return (frame.bigEndian(at: 3, count: 2), frame.bigEndian(at: 1, count: 2))
    }
}
