// Playlists: files, folders, M3U and PLS playlists and URLs turned into the URIs to queue. An adapter
// without C of ours: may import ControlAPI (for the file URI rule) and Glibc.
import ControlAPI
import Glibc

/// Turns what a user names — files, folders, playlists, URLs — into a flat list of playable entries.
public enum MediaSources {
    /// Expands each argument in turn: an `http(s)` URL stays as it is; a folder gives its audio files
    /// (see `AudioFolder`); a `.m3u`, `.m3u8` or `.pls` file gives its entries; any other existing file is
    /// taken as it is (the user named it). Relative paths are resolved against `workingDirectory`.
    /// Nothing throws: what cannot be used is listed in `skipped`.
    public static func expand(_ arguments: [String], workingDirectory: String) -> MediaList {
        expand(argumentBytes: arguments.map { Array($0.utf8) }, workingDirectory: workingDirectory)
    }

    /// The same for arguments as the program's bytes (`LocalPath.commandLineBytes`): one that is not UTF-8
    /// can only be a path.
    public static func expand(argumentBytes arguments: [[UInt8]], workingDirectory: String) -> MediaList {
        let resolver = ReferenceResolver(playlist: nil, folder: Array(workingDirectory.utf8), ancestors: [],
                                         budget: ExpansionBudget())
        var list = MediaList()
        for argument in arguments {
            if let text = String(validating: argument, as: UTF8.self) {
                list.append(resolver.resolve(text, line: nil))
            } else {
                list.append(resolver.resolveLocal(LocalPath.absolute(argument, in: resolver.folder),
                                                  String(decoding: argument, as: UTF8.self), nil, nil, nil))
            }
        }
        return list
    }
}

/// Resolves references found in one place (a playlist, or the command line) the same way.
struct ReferenceResolver {
    /// Nested playlists deeper than this are skipped.
    static let maximumDepth = 8

    /// The playlist holding the references (for reports), or `nil` for command-line arguments.
    let playlist: String?
    /// Absolute folder that relative paths start from.
    let folder: [UInt8]
    /// The playlists being read, outermost first: one of them met again includes itself.
    let ancestors: [FileIdentity]
    let budget: ExpansionBudget

    var depth: Int { ancestors.count }

    /// Nothing once the expansion's budget is spent. Entries are counted where they are found (a URL, a
    /// file, a folder's files), never again on their way out of the playlists that hold them.
    func resolve(_ reference: String, line: Int?, title: String? = nil, lengthSeconds: Int? = nil) -> MediaList {
        let text = Substring(reference).trimmingASCIIWhitespace()
        guard !budget.isSpent else { return budget.spent(at: (playlist, line, text)) }
        let scheme = LocalPath.uriScheme(text)
        if scheme == "http" || scheme == "https" {
            return found(MediaList(entries: [MediaEntry(uri: text, title: title, lengthSeconds: lengthSeconds)]), text, line)
        }
        if scheme == "file", let path = FileURI.pathBytes(fromURI: text) {
            return resolveLocal(LocalPath.normalized(path), text, line, title, lengthSeconds)
        }
        if scheme != nil { return skip(text, line, .unsupportedURI) }
        return resolvePath(text, line, title, lengthSeconds)
    }

    /// A path as written; `\` separators (playlists made on Windows) are tried when the path as written is missing.
    private func resolvePath(_ text: String, _ line: Int?, _ title: String?, _ length: Int?) -> MediaList {
        let asWritten = resolveLocal(absolute(text), text, line, title, length)
        guard text.contains("\\"), asWritten.skipped.first?.reason == .notFound else { return asWritten }
        let slashed = String(text.map { $0 == "\\" ? "/" : $0 })
        let retried = resolveLocal(absolute(slashed), text, line, title, length)
        return retried.skipped.first?.reason == .notFound ? asWritten : retried
    }

    func resolveLocal(_ path: [UInt8], _ text: String, _ line: Int?,
                              _ title: String?, _ length: Int?) -> MediaList {
        var info = stat()
        guard stat(cPath(path), &info) == 0 else {
            return skip(text, line, errno == ENOENT || errno == ENOTDIR ? .notFound : .unreadable(errnoText()))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            return found(AudioFolder.scan(pathBytes: path), text, line)
        }
        if let format = PlaylistFormat(pathBytes: path) {
            if let why = notRegularFileReason(info.st_mode) { return skip(text, line, .refused(why)) }
            return nestedPlaylist(path, info, format: format, text, line)
        }
        return found(MediaList(entries: [MediaEntry(uri: FileURI.encode(pathBytes: path), title: title, lengthSeconds: length)]),
                     text, line)
    }

    private func nestedPlaylist(_ path: [UInt8], _ info: stat, format: PlaylistFormat, _ text: String, _ line: Int?)
        -> MediaList {
        guard !ancestors.contains(FileIdentity(info)) else {
            return skip(text, line, .refused("a playlist that includes itself (left out there)"))
        }
        guard depth < Self.maximumDepth else {
            return skip(text, line, .unreadable("playlists nested more than \(Self.maximumDepth) deep"))
        }
        do {
            return try PlaylistFile.read(pathBytes: path, format: format, ancestors: ancestors, budget: budget)
        } catch {
            return skip(text, line, .unreadable(error.reason))
        }
    }

    private func found(_ list: MediaList, _ text: String, _ line: Int?) -> MediaList {
        budget.take(list, at: (playlist, line, text))
    }

    private func skip(_ text: String, _ line: Int?, _ reason: SkippedEntry.Reason) -> MediaList {
        MediaList(skipped: [SkippedEntry(playlist: playlist, line: line, reference: text, reason: reason)])
    }

    private func absolute(_ text: String) -> [UInt8] {
        LocalPath.absolute(Array(text.utf8), in: folder)
    }
}

/// A NUL-terminated copy of a path's bytes, for the C calls.
func cPath(_ bytes: [UInt8]) -> [CChar] {
    bytes.map { CChar(bitPattern: $0) } + [0]
}

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

extension Substring {
    /// Without leading and trailing spaces, tabs and line ends (on UTF-8 bytes, for speed).
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
