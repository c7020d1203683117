/// The first bytes of images of any announced size, for tests of what a cover may be: a decoder would fail
/// on the rest, but the header is what the daemon and the plugin read before they show a cover.
public enum ImageHeaders {
    /// A PNG signature and IHDR chunk announcing `width` × `height` (8-bit RGBA), then an empty IDAT and IEND.
    public static func png(width: Int, height: Int) -> [UInt8] {
        let ihdr = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + ihdr + be32(0)
            + be32(0) + Array("IDAT".utf8) + be32(0) + be32(0) + Array("IEND".utf8) + be32(0)
    }

    /// SOI, an APP1 segment of `metadataBytes` (Exif, thumbnails…) and a baseline frame header (SOF0).
    public static func jpeg(width: Int, height: Int, metadataBytes: Int = 16) -> [UInt8] {
        let app1 = [0xFF, 0xE1] + be16(metadataBytes + 2) + [UInt8](repeating: 0x45, count: metadataBytes)
        let sof0: [UInt8] = [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return [0xFF, 0xD8] + app1 + sof0 + [0xFF, 0xD9]
    }

    /// The GIF89a signature, a logical screen of `width` × `height` with a two-colour table, a comment
    /// extension, and a first frame of `frameWidth` × `frameHeight` (the screen's size unless given).
    public static func gif(width: Int, height: Int, frameWidth: Int? = nil, frameHeight: Int? = nil) -> [UInt8] {
        let comment: [UInt8] = [0x21, 0xFE, 5] + Array("hello".utf8) + [0]
        let frame = [0x2C] + le(0, 2) + le(0, 2) + le(frameWidth ?? width, 2) + le(frameHeight ?? height, 2) + [0]
        return Array("GIF89a".utf8) + le(width, 2) + le(height, 2) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + comment + frame + [2, 2, 0x44, 0x01, 0, 0x3B]
    }

    /// A RIFF/WEBP file whose first chunk is a lossless `VP8L` header.
    public static func webP(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        let chunk = Array("VP8L".utf8) + le(5, 4) + [0x2F] + le(bits, 4)
        return Array("RIFF".utf8) + le(chunk.count + 4, 4) + Array("WEBP".utf8) + chunk
    }

    /// A BMP file header and a 40-byte info header (`height` negative for rows top-down).
    public static func bmp(width: Int, height: Int) -> [UInt8] {
        Array("BM".utf8) + le(54, 4) + le(0, 4) + le(54, 4) + le(40, 4) + le(width, 4) + le(height, 4)
            + le(1, 2) + le(24, 2) + [UInt8](repeating: 0, count: 24)
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    static func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
