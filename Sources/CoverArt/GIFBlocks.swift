/// The size of a GIF image: its logical screen, grown to hold its first frame. A decoder allocates for the
/// frame it draws, so a 1 × 1 screen announcing a 20 000 × 20 000 frame is as large as the frame. The blocks
/// before the frame (extensions: comments, XMP, animation control) are skipped sub-block by sub-block.
struct GIFBlocks<Bytes: ImageBytes> {
    let bytes: Bytes

    init(_ bytes: Bytes) {
        self.bytes = bytes
    }

    /// Extensions are read in sub-blocks of at most 255 bytes: this bounds the reads before the first frame.
    static var maximumSubBlocks: Int { 4096 }

    var size: (width: Int, height: Int)? {
        let screen = bytes.read(at: 6, count: 5)  // width, height (little-endian), flags
        guard screen.count == 5 else { return nil }
        let colourTable = screen[4] & 0x80 != 0 ? 3 << (Int(screen[4] & 0x07) + 1) : 0
        guard let frame = firstFrame(from: 13 + colourTable) else { return nil }
        return (max(screen.littleEndian(at: 0, count: 2), frame.right), max(screen.littleEndian(at: 2, count: 2), frame.bottom))
    }

    /// The right and bottom edges of the first image descriptor (0x2C: left, top, width, height).
    private func firstFrame(from start: Int) -> (right: Int, bottom: Int)? {
        var offset = start
        var inExtension = false
        for _ in 0..<Self.maximumSubBlocks {
            if inExtension {  // a sub-block: its length, then its bytes; length 0 ends the extension
                guard let length = bytes.read(at: offset, count: 1).first else { return nil }
                offset += 1 + Int(length)
                inExtension = length > 0
                continue
            }
            let block = bytes.read(at: offset, count: 10)
            switch block.first {
            case 0x2C? where block.count == 10:
                return (block.littleEndian(at: 1, count: 2) + block.littleEndian(at: 5, count: 2),
                        block.littleEndian(at: 3, count: 2) + block.littleEndian(at: 7, count: 2))
            case 0x21? where block.count >= 3:  // an extension: introducer and label, then sub-blocks
                offset += 2
                inExtension = true
            default:
                return nil  // the trailer before any frame, or damaged
            }
        }
        return nil
    }
}
