import Glibc

/// A cover image file on this machine, vetted before anyone is shown it: a `cover.jpg` comes with the album,
/// and an album unpacked from a tar or zip may hold `cover.jpg -> ../../.ssh/id_rsa`. A file passes only if
/// it is a regular file reached without a symbolic link as its last component (`O_NOFOLLOW`; a link is
/// refused even when its target is harmless), at most `maximumBytes` long, and its first bytes are the header
/// of an image of the formats in `ImageFormat` with both sides within `ImageHeader.maximumSide`.
public enum CoverFile {
    /// Why a file was not taken as a cover, said in a log line.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case unreadable(errno: Int32)
        case symbolicLink
        case notARegularFile
        case tooLarge(bytes: Int)
        case notAnImage
        case tooManyPixels(width: Int, height: Int)

        public var description: String {
            switch self {
            case .unreadable(let code): return String(cString: strerror(code))
            case .symbolicLink: return "a symbolic link"
            case .notARegularFile: return "not a regular file"
            case .tooLarge(let bytes): return "too large (\(bytes) bytes)"
            case .notAnImage: return "not an image (by its first bytes)"
            case .tooManyPixels(let width, let height):
                return "\(width)×\(height) pixels (at most \(ImageHeader.maximumSide) a side)"
            }
        }
    }

    /// The header of the image at `path`, read without reading the rest, if it may be shown.
    public static func header(at path: String, maximumBytes: Int) -> Result<ImageHeader, Refusal> {
        withRegularFile(at: path, maximumBytes: maximumBytes) { descriptor, _ in
            vetted(FileBytes(descriptor: descriptor))
        }
    }

    /// The whole image at `path`, with its header, if it may be shown. The bytes returned are the bytes
    /// checked: the file is read once, through one descriptor.
    public static func contents(at path: String, maximumBytes: Int) -> Result<(bytes: [UInt8], header: ImageHeader), Refusal> {
        withRegularFile(at: path, maximumBytes: maximumBytes) { descriptor, size in
            let bytes = FileBytes(descriptor: descriptor).read(at: 0, count: size)
            return vetted(bytes).map { (bytes, $0) }
        }
    }

    /// The header of an image held in memory (an embedded cover), if it may be shown.
    public static func vetted(_ bytes: some ImageBytes) -> Result<ImageHeader, Refusal> {
        guard let header = ImageHeader(reading: bytes) else { return .failure(.notAnImage) }
        guard header.isWithinBounds else { return .failure(.tooManyPixels(width: header.width, height: header.height)) }
        return .success(header)
    }

    /// Opens `path` without following a link at its end and without waiting on a FIFO (`O_NONBLOCK`), and
    /// hands `body` the descriptor of a regular file of at most `maximumBytes` and its size.
    private static func withRegularFile<T>(at path: String, maximumBytes: Int,
                                           _ body: (Int32, Int) -> Result<T, Refusal>) -> Result<T, Refusal> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(errno == ELOOP ? .symbolicLink : .unreadable(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        guard status.st_size <= maximumBytes else { return .failure(.tooLarge(bytes: Int(status.st_size))) }
        return body(descriptor, Int(status.st_size))
    }
}
