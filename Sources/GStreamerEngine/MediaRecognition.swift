import Glibc
import GStreamer

extension GStreamerEngine {
    /// Whether a local file starts like something playbin can play: audio, an audio container or a tag
    /// header in front of one. Text, images, archives and bytes no type finder is sure of are not.
    /// Reads the first 64 KiB (enough for the type finders, which look at a few frames at most). `path` is
    /// the file name's bytes (without NUL), which need not be UTF-8.
    public static func recognisesMedia(atPath path: [UInt8]) -> Bool {
        guard let type = TypeFinding.mediaType(of: firstBytes(of: path, count: 64 << 10)) else { return false }
        return playablePrefixes.contains { type.hasPrefix($0) }
    }

    private static let playablePrefixes = ["audio/", "video/", "application/ogg", "application/x-id3",
                                           "application/x-apetag", "application/x-3gp", "application/x-ogm"]

    private static func firstBytes(of path: [UInt8], count: Int) -> [UInt8] {
        let descriptor = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        return Array(bytes.prefix(max(0, read)))
    }
}
