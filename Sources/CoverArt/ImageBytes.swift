import Glibc

/// Where an image's bytes are read from, a few at a time: a header is a few dozen bytes, but a JPEG's
/// frame header may come after megabytes of metadata segments, which are skipped rather than read.
public protocol ImageBytes {
    /// Up to `count` bytes from `offset`; fewer past the end, none on an error.
    func read(at offset: Int, count: Int) -> [UInt8]
}

extension [UInt8]: ImageBytes {
    public func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, offset < self.count, count > 0 else { return [] }
        return Array(self[offset..<Swift.min(self.count, offset + count)])
    }
}

/// An open file read with pread(2), so nothing but the header's bytes is read.
struct FileBytes: ImageBytes {
    let descriptor: Int32

    func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            guard got > 0 else { break }  // the end, or an error: what was read so far
            filled += got
        }
        bytes.removeLast(count - filled)
        return bytes
    }
}
