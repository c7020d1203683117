import ControlAPI
import Foundation
import Playlists
import TestSupport
import XCTest

/// A temporary music folder in which tests create empty files and playlists.
final class MusicFolder {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "quaver-playlists")
    }

    /// Creates empty files (and their folders) at the given relative paths.
    func touch(_ relativePaths: String...) throws {
        for relative in relativePaths { try write(relative, Data()) }
    }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let url = directory.url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    @discardableResult
    func write(_ relative: String, text: String) throws -> String {
        try write(relative, Data(text.utf8))
    }

    /// The file URI of a path relative to this folder.
    func uri(_ relative: String) -> String {
        FileURI.encode(path: path + "/" + relative)
    }
}

extension MediaList {
    var uris: [String] { entries.map(\.uri) }
}
