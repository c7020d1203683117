import ControlAPI
import Foundation
import Playlists

/// Turns what the user typed (files, folders, playlists, URLs) into URIs for the daemon. Done here, not
/// in quaverd, because relative paths belong to the user's working directory. Items that give nothing are
/// reported on stderr; when nothing at all is left, the command fails.
enum MediaArguments {
    static func uris(for items: [String]) throws -> [String] {
        let list = MediaSources.expand(argumentBytes: LocalPath.commandLineBytes(of: items),
                                       workingDirectory: FileManager.default.currentDirectoryPath)
        for skipped in list.skipped { Terminal.warn("skipped \(skipped)") }
        guard !list.entries.isEmpty else { throw CLIError("nothing to queue in \(items.joined(separator: " "))") }
        return list.entries.map(\.uri)
    }

    /// Whether one of `items` is a folder (relative paths from the working directory), looked up by the
    /// bytes the user gave.
    static func namesAFolder(_ items: [String]) -> Bool {
        LocalPath.commandLineBytes(of: items).contains { path in
            var status = stat()
            return !path.contains(0) && LocalPath.withCString(path, { stat($0, &status) }) == 0 && status.st_mode & S_IFMT == S_IFDIR
        }
    }
}
