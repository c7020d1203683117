import PlayerCore

/// `file://` URIs from and to local paths, byte-exact.
///
/// Linux file names are bytes, not necessarily UTF-8, so both directions work on the path's bytes:
/// a name that is not valid UTF-8 still round-trips. Percent-encoding follows RFC 3986: every byte
/// outside the path characters (`pchar` and `/`) is written `%XX`, so spaces, `#`, `?`, `%` and
/// non-ASCII letters cannot be mistaken for URI syntax by GStreamer or an MPRIS client.
public enum FileURI {
    /// `file://` followed by the percent-encoded absolute `path` (which must start with `/`).
    public static func encode(path: String) -> String {
        encode(pathBytes: Array(path.utf8))
    }

    /// The same for a path given as raw bytes (from `readdir`).
    public static func encode<Bytes: Collection>(pathBytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = Array("file://".utf8)
        out.reserveCapacity(out.count + pathBytes.count + 16)
        for byte in pathBytes {
            if allowed[Int(byte)] {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A command-line argument as a URI: one with a scheme stays as it is; a path, absolute or relative
    /// to `workingDirectory`, becomes a `file://` URI. The CLI's `MediaSources` resolves paths with the same
    /// `LocalPath.absolute` and `encode`, so `quaverd x.flac` and `quaver add x.flac` queue the same URI.
    public static func uri(forArgument argument: String, workingDirectory: String) -> String {
        uri(forArgumentBytes: Array(argument.utf8), workingDirectory: workingDirectory)
    }

    /// The same for an argument as the program's bytes (`LocalPath.commandLineBytes`): a path need not be UTF-8.
    public static func uri(forArgumentBytes argument: [UInt8], workingDirectory: String) -> String {
        if let text = String(validating: argument, as: UTF8.self), LocalPath.uriScheme(text) != nil { return text }
        return encode(pathBytes: LocalPath.absolute(argument, in: Array(workingDirectory.utf8)))
    }

    /// The decoded path bytes of a local `file:` URI: `file:///p`, `file://localhost/p` or `file:/p`.
    /// `nil` for another host (not a local file) or a malformed escape.
    public static func pathBytes(fromURI uri: String) -> [UInt8]? {
        var rest = Substring(uri)
        guard rest.count >= 5, rest.prefix(5).lowercased() == "file:" else { return nil }
        rest = rest.dropFirst(5)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let host = rest.prefix { $0 != "/" }
            guard host.isEmpty || host.lowercased() == "localhost" else { return nil }
            rest = rest.dropFirst(host.count)
        }
        guard rest.hasPrefix("/") else { return nil }
        return PercentDecoding.bytes(rest.utf8)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986 `pchar` (unreserved, sub-delims, `:` and `@`) plus `/`: the bytes kept as they are.
    private static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
}
