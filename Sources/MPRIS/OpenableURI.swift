import ControlAPI
import DBus
import FoundationEssentials
import Glibc
import PublicText

/// What the daemon agrees to queue: a URI with one of `schemes`, and for `file:` a readable regular file
/// whose first bytes look like media (`recognisesMedia`, GStreamer's type finders, when given).
/// Checked before the queue changes, so a refused OpenUri or AddTrack leaves it as it was. A file that
/// passes and still cannot be played (truncated, corrupt further in) fails when played: the core
/// reports it and skips it.
public enum OpenableURI {
    /// Exactly what is advertised as SupportedUriSchemes.
    public static let schemes = ["file", "http", "https"]

    /// The URI to queue, or a D-Bus error saying why not. The length comes first: nothing else is asked of
    /// a string of megabytes.
    public static func check(_ text: String, recognisesMedia: (([UInt8]) -> Bool)? = nil) throws -> String {
        guard text.utf8.count <= InputLimits.maximumURIBytes else {
            throw DBusError.invalidArgs("a URI of \(text.utf8.count) bytes: at most \(InputLimits.maximumURIBytes) are accepted")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw DBusError.invalidArgs("not a URI: \(PublicText.url(text, limit: 200))")
        }
        guard schemes.contains(scheme) else {
            throw DBusError.notSupported("URI scheme '\(excerpt(scheme))' is not supported (supported: \(schemes.joined(separator: ", ")))")
        }
        if scheme == "file" { try checkLocalFile(text, recognisesMedia) }
        else if url.host?.isEmpty ?? true { throw DBusError.invalidArgs("no host in \(PublicText.url(text, limit: 200))") }
        return text
    }

    /// The file is looked at by the bytes the URI carries (`FileURI.pathBytes`, as GStreamer's filesrc
    /// decodes it): a Linux file name need not be UTF-8 (`latin%E9%FF.flac`), and Foundation's `URL.path`
    /// made such a name an empty path.
    private static func checkLocalFile(_ uri: String, _ recognisesMedia: (([UInt8]) -> Bool)?) throws {
        guard let path = FileURI.pathBytes(fromURI: uri), !path.isEmpty, !path.contains(0) else {
            throw DBusError.invalidArgs("not a local file name: \(excerpt(uri))")
        }
        let shown = excerpt(String(decoding: path, as: UTF8.self))
        var status = stat()
        guard LocalPath.withCString(path, { stat($0, &status) }) == 0 else {
            throw DBusError(name: "org.freedesktop.DBus.Error.FileNotFound", message: "no such file: \(shown)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw DBusError.invalidArgs("not a regular file: \(shown)") }
        guard LocalPath.withCString(path, { access($0, R_OK) }) == 0 else { throw DBusError.accessDenied("cannot read \(shown)") }
        if let recognisesMedia, !recognisesMedia(path) {
            throw DBusError.invalidArgs("not a sound file GStreamer recognises: \(shown)")
        }
    }

    /// Error texts quote at most 200 bytes (a client may send a megabyte), credentials masked.
    private static func excerpt(_ text: String) -> String {
        PublicText.from(text, limit: 200)
    }
}

extension OpenableURI {
    /// Command-line items (`quaverd FILE…`, paths as the shell gave their bytes, or URIs) as URIs checked as
    /// OpenUri checks them; each refused item goes to `refused`, with why, as it may be shown.
    public static func commandLine(_ items: [String], refused: (String) -> Void) -> [String] {
        let workingDirectory = FileManager.default.currentDirectoryPath
        return zip(items, LocalPath.commandLineBytes(of: items)).compactMap { item, bytes in
            do {
                return try check(FileURI.uri(forArgumentBytes: bytes, workingDirectory: workingDirectory))
            } catch {
                refused("\(PublicText.url(item)): \(error)")
                return nil
            }
        }
    }
}
