import DBus
import Glibc
import Playlists

/// What org.quaver.Quaver1 accepts into the queue: `file:` URIs of readable regular files and
/// `http(s)` URLs. A batch is checked whole before anything is queued, so a bad item leaves the queue as it was.
enum QueueURI {
    /// Throws `InvalidArgs` naming the first refused item and why.
    static func checkAll(_ uris: [String]) throws {
        for (index, uri) in uris.enumerated() {
            if let problem = problem(with: uri) {
                throw DBusError.invalidArgs("item \(index + 1) \"\(uri)\": \(problem); the queue is unchanged")
            }
        }
    }

    /// Why `uri` cannot be queued, or nil when it can.
    static func problem(with uri: String) -> String? {
        let lowered = uri.prefix(8).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return uri.drop(while: { $0 != "/" }).dropFirst(2).isEmpty ? "URL without a host" : nil
        }
        guard lowered.hasPrefix("file:") else { return "only file, http and https URIs can be queued" }
        guard let path = FileURI.pathBytes(fromURI: uri) else { return "not a local file URI" }
        return problem(withFile: path.map { CChar(bitPattern: $0) } + [0])
    }

    private static func problem(withFile path: [CChar]) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return "is a folder (the client expands folders)" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        return access(path, R_OK) == 0 ? nil : "cannot be read (\(String(cString: strerror(errno))))"
    }
}
