/// Paths and arguments as users write them, on bytes (Linux file names need not be UTF-8).
public enum LocalPath {
    /// `path` with `.` and empty components removed and `..` applied, without touching the disk (as
    /// `realpath` would), so the URI names the path the user or the playlist wrote, links included.
    public static func normalized(_ path: [UInt8]) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual(".".utf8) { continue }
            if part.elementsEqual("..".utf8) {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        guard !parts.isEmpty else { return [UInt8(ascii: "/")] }
        var out: [UInt8] = []
        out.reserveCapacity(path.count)
        for part in parts {
            out.append(UInt8(ascii: "/"))
            out += part
        }
        return out
    }

    /// `path` made absolute against `folder` (itself absolute) when relative, then normalized.
    public static func absolute(_ path: [UInt8], in folder: [UInt8]) -> [UInt8] {
        normalized(path.first == UInt8(ascii: "/") ? path : folder + [UInt8(ascii: "/")] + path)
    }

    /// The bytes the program was given for each of `items` (its command-line arguments, as parsed): Swift's
    /// `CommandLine.arguments` repair a file name that is not UTF-8 (`latin\xE9.flac` becomes `latin�.flac`,
    /// which names no file). Each item takes the first unused raw argument that reads as it; one that none
    /// does keeps its own UTF-8.
    public static func commandLineBytes(of items: [String]) -> [[UInt8]] {
        var raw = (1..<Int(CommandLine.argc)).compactMap { index in CommandLine.unsafeArgv[index].map(bytes(ofCString:)) }
        return items.map { item in
            guard let index = raw.firstIndex(where: { String(decoding: $0, as: UTF8.self) == item }) else { return Array(item.utf8) }
            return raw.remove(at: index)
        }
    }

    private static func bytes(ofCString text: UnsafeMutablePointer<CChar>) -> [UInt8] {
        var bytes: [UInt8] = []
        var next = text
        while next.pointee != 0 {
            bytes.append(UInt8(bitPattern: next.pointee))
            next += 1
        }
        return bytes
    }

    /// `body` given `path` (bytes without NUL) as a C string, for the system calls that take a file name.
    public static func withCString<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (path + [0]).withUnsafeBufferPointer { bytes in
            try bytes.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The lowercased RFC 3986 scheme of `text`, if it starts with one. Single letters are not
    /// schemes here, so a Windows drive (`C:\…`) is read as a path. Works on UTF-8 bytes: this runs
    /// for every line of a playlist, and Character iteration would dominate a 20 000-line one.
    public static func uriScheme(_ text: String) -> String? {
        let bytes = text.utf8
        guard let first = bytes.first, isASCIILetter(first) else { return nil }
        var length = 0
        for byte in bytes {
            if byte == UInt8(ascii: ":") { break }
            guard isASCIILetter(byte) || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46 else {
                return nil
            }
            length += 1
        }
        guard length >= 2, length < bytes.count else { return nil }
        return String(decoding: bytes.prefix(length), as: UTF8.self).lowercased()
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
