/// What an image file says about itself in its first bytes: its format (by signature, never by name or MIME
/// type) and its size in pixels (from the header: PNG's IHDR, JPEG's SOF, GIF's screen and first frame, WebP's VP8,
/// VP8L or VP8X chunk, BMP's info header). Nothing is decoded: the desktop shell, the notification server and
/// Snapweb decode covers, and a 389 KB PNG can announce 20 000 × 20 000 pixels (1.6 GB once decoded).
public struct ImageHeader: Equatable, Sendable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int

    /// Covers wider or taller than this are not shown (a printed LP sleeve at 600 dpi is about 7 400 pixels).
    public static let maximumSide = 8192

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of the image in `bytes`, or nil when they are not one of the formats, the header is cut
    /// short or damaged, or a side is 0.
    public init?(reading bytes: some ImageBytes) {
        guard let format = ImageFormat(magic: bytes.read(at: 0, count: 12)),
              let size = Self.size(of: format, in: bytes), size.width > 0, size.height > 0 else { return nil }
        self.init(format: format, width: size.width, height: size.height)
    }

    /// Both sides within `maximumSide`.
    public var isWithinBounds: Bool { width <= Self.maximumSide && height <= Self.maximumSide }

    private static func size(of format: ImageFormat, in bytes: some ImageBytes) -> (width: Int, height: Int)? {
        switch format {
        case .png: return pngSize(bytes.read(at: 8, count: 16))
        case .jpg: return JPEGFrames(bytes).size
        case .gif: return GIFBlocks(bytes).size
        case .webp: return webPSize(bytes.read(at: 12, count: 18))
        case .bmp: return bmpSize(bytes.read(at: 14, count: 12))
        }
    }

    /// IHDR, which PNG requires to come first: length 13, type, then width and height (big-endian).
    private static func pngSize(_ chunk: [UInt8]) -> (width: Int, height: Int)? {
        guard chunk.count == 16, chunk[0..<8].elementsEqual([0, 0, 0, 13] + Array("IHDR".utf8)) else { return nil }
        return (chunk.bigEndian(at: 8, count: 4), chunk.bigEndian(at: 12, count: 4))
    }

    /// The first chunk after `RIFF….WEBP` (from its four-character code on): lossy `VP8 ` (14-bit sides
    /// after the start code 9D 01 2A), lossless `VP8L` (14-bit sides minus one after the byte 2F) or
    /// extended `VP8X` (24-bit canvas sides minus one).
    private static func webPSize(_ chunk: [UInt8]) -> (width: Int, height: Int)? {
        guard chunk.count >= 13 else { return nil }
        switch String(decoding: chunk[0..<4], as: UTF8.self) {
        case "VP8 " where chunk.count == 18 && chunk[11..<14].elementsEqual([0x9D, 0x01, 0x2A]):
            return (chunk.littleEndian(at: 14, count: 2) & 0x3FFF, chunk.littleEndian(at: 16, count: 2) & 0x3FFF)
        case "VP8L" where chunk[8] == 0x2F:
            let bits = chunk.littleEndian(at: 9, count: 4)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8X" where chunk.count == 18:
            return (chunk.littleEndian(at: 12, count: 3) + 1, chunk.littleEndian(at: 15, count: 3) + 1)
        default:
            return nil
        }
    }

    /// The DIB header after the 14-byte file header: OS/2's 12-byte core header (16-bit sides) or the
    /// Windows info header (signed 32-bit sides; a negative height means rows top-down).
    private static func bmpSize(_ header: [UInt8]) -> (width: Int, height: Int)? {
        guard header.count == 12 else { return nil }
        let headerSize = header.littleEndian(at: 0, count: 4)
        if headerSize == 12 { return (header.littleEndian(at: 4, count: 2), header.littleEndian(at: 6, count: 2)) }
        guard headerSize >= 40 else { return nil }
        let width = Int(Int32(truncatingIfNeeded: header.littleEndian(at: 4, count: 4)))
        let height = Int(Int32(truncatingIfNeeded: header.littleEndian(at: 8, count: 4)))
        return (width, abs(height))
    }
}

/// The image formats shown as cover art, known by their signature bytes; the raw value is the file extension
/// written for them.
public enum ImageFormat: String, Sendable {
    case png, jpg, gif, webp, bmp

    public init?(magic bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpg }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts(Array("BM".utf8)) { self = .bmp }
        else { return nil }
    }
}

extension [UInt8] {
    func bigEndian(at offset: Int, count: Int) -> Int {
        self[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(at offset: Int, count: Int) -> Int {
        self[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
