// RIFFLayout: the chunk layout of a RIFF/WAVE file checked before GStreamer reads it. Pure Swift, no
// dependencies: the engine hands it a way to read bytes (a local file, or the media cache).
import Glibc

/// A chunk that GStreamer 1.22's wavparse cannot read without aborting the whole process.
public struct WAVHazard: Error, Equatable, Sendable, CustomStringConvertible {
    /// The chunk's four-character tag, as printable ASCII.
    public let tag: String
    /// Where its 8-byte header starts.
    public let offset: UInt64
    /// The size its header declares.
    public let declaredSize: UInt32
    /// More chunks than `WAVChunkCheck.chunkLimit` before the end: not walked any further.
    public let tooManyChunks: Bool

    func moved(by start: UInt64) -> WAVHazard {
        WAVHazard(tag: tag, offset: offset + start, declaredSize: declaredSize, tooManyChunks: tooManyChunks)
    }

    public var description: String {
        tooManyChunks ? "WAV file with more than \(WAVChunkCheck.chunkLimit) chunks (byte \(offset)); not played"
            : "WAV chunk '\(tag)' at byte \(offset) claims \(declaredSize) bytes, which GStreamer's wavparse cannot skip; not played"
    }
}

/// Walks a WAV file's chunks as wavparse 1.22 walks them in pull mode (filesrc, our random-access appsrc), to
/// find the chunk that makes it abort. Reproduced with `gst-launch-1.0 filesrc ! wavparse ! fakesink`.
///
/// In `gst_wavparse_stream_headers` (gst-plugins-good 1.22 with the GST-SA-2026-0001 / CVE-2026-1940
/// backport, as Debian 12 ships it: `gstwavparse.c:763`, 1.24 branch commit 62d390f4), every chunk after
/// `fmt ` is read up to the end of the file, the data chunk skipped by its declared size. A size above
/// 0x7fffffff is clipped to 0x7fffffff, then to what the file still holds; a chunk other than `data` that
/// keeps 0x7fffffff reaches `gst_waveparse_ignore_chunk`'s `g_assert (size < MAX_CHUNK_SIZE)`, which aborts.
/// So a file at least 2 GiB past such a header dies: a 10 GB download with a sized data chunk and other
/// bytes after it, or a streamed WAV (data size 0xffffffff) longer than 2 GiB whose audio reads as a chunk
/// header there. Push mode (fdsrc) aborts too, after buffering 2 GiB, on a chunk of exactly 0x7fffffff
/// bytes before `data` (0xffffffff there fails cleanly); this check covers pull mode, what the engine uses.
/// Upstream: the same assertion is in main (1.29.2) and no issue about it was found; this check stays
/// until a wavparse that skips the chunk (or stops) instead of asserting ships.
public enum WAVChunkCheck {
    /// wavparse's `MAX_CHUNK_SIZE` (`G_MAXINT32`).
    static let maxChunkSize: UInt64 = 0x7fff_ffff
    /// A real WAV has a handful of chunks; a file that is not done after this many is not walked further
    /// (wavparse would go on 8 bytes at a time through a file of zeros).
    public static let chunkLimit = 1000

    /// The first chunk wavparse would abort on, or nil: the file is not a RIFF/WAVE file, or it is safe.
    /// `read(offset, count, inOrder)` gives exactly `count` bytes or nil (nothing more can be read: not
    /// checked). A WAV behind ID3v2 or APEv2 tags at its start is walked too: GStreamer's id3demux and
    /// apedemux take them off in pull mode and give wavparse the rest (a tagged 3 GiB file aborted the same
    /// way). Reads past a tag are `inOrder`: the demuxers read the whole tag first, so a reader that fetches
    /// (a download) should read on to them rather than jump (an MP3's tag may hold a cover of megabytes).
    public static func hazard(length: UInt64, read: (UInt64, Int, _ inOrder: Bool) -> [UInt8]?) -> WAVHazard? {
        var start: UInt64 = 0
        for _ in 0..<maxLeadingTags {
            guard let head = read(start, 32, true).flatMap(leadingTagSize) else { break }
            start += head
            guard start < length else { return nil }
        }
        return walk(length: length - start) { read(start + $0, $1, $0 == 0) }.map { $0.moved(by: start) }
    }

    /// Tags taken off one after another before the WAV; more than this is not a file anyone made.
    static let maxLeadingTags = 8

    private static func walk(length: UInt64, read: (UInt64, Int) -> [UInt8]?) -> WAVHazard? {
        guard length >= 12, let head = read(0, 12), isWAVE(head) else { return nil }
        var offset: UInt64 = 12
        var chunks = 0
        while offset + 8 <= length {
            guard let header = read(offset, 8) else { return nil }
            let chunk = Chunk(header)
            chunks += 1
            guard chunks <= chunkLimit else {
                return WAVHazard(tag: chunk.tag, offset: offset, declaredSize: chunk.size, tooManyChunks: true)
            }
            let size = min(UInt64(chunk.size), maxChunkSize, length - offset - 8)
            if chunk.tag == "data" {
                // A data chunk of size 0 runs to the end of the file; wavparse skips the rest unrounded.
                guard chunk.size != 0 else { return nil }
                offset += 8 + size
            } else {
                if size == maxChunkSize {
                    return WAVHazard(tag: chunk.tag, offset: offset, declaredSize: chunk.size, tooManyChunks: false)
                }
                offset += 8 + size + (size & 1)
            }
        }
        return nil
    }

    /// The same check on a local file; nil when it is not a regular file or cannot be opened. Opened with
    /// `O_NONBLOCK` and looked at with `fstat` before any read: a FIFO queued as a track must not block the
    /// caller (the loop thread) in `open` or `read`.
    public static func hazard(inFileAt path: String) -> WAVHazard? {
        let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return hazard(length: UInt64(status.st_size)) { offset, count, _ in
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) }
            return read == count ? bytes : nil
        }
    }

    /// The length of an ID3v2 tag (10-byte header, syncsafe size, a footer if flagged) or an APEv2 tag
    /// (32-byte header, then the size it gives) starting with `head`; nil for anything else.
    static func leadingTagSize(_ head: [UInt8]) -> UInt64? {
        if head.starts(with: Array("ID3".utf8)) {
            let size = head[6..<10].reduce(UInt64(0)) { $0 << 7 | UInt64($1 & 0x7f) }
            return 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        if head.starts(with: Array("APETAGEX".utf8)) {
            return 32 + head[12..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        return nil
    }

    /// `RIFF`, `RF64` or `BW64`, then `WAVE`: what wavparse takes for a WAV.
    static func isWAVE(_ head: [UInt8]) -> Bool {
        let form = String(decoding: head[0..<4], as: UTF8.self)
        return ["RIFF", "RF64", "BW64"].contains(form) && String(decoding: head[8..<12], as: UTF8.self) == "WAVE"
    }
}

/// One chunk header: four bytes of tag, a little-endian 32-bit size.
private struct Chunk {
    let tag: String
    let size: UInt32

    init(_ header: [UInt8]) {
        tag = String(header[0..<4].map { (0x20...0x7e).contains($0) ? Character(UnicodeScalar($0)) : "?" })
        size = header[4..<8].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
