import Foundation
import Library
import TestSupport

/// A music folder and an index in a temporary folder, with a scanner over them, run to completion on demand.
final class ScannedLibrary {
    let home: TemporaryDirectory
    let music: URL
    let index: LibraryIndex
    private(set) var notes: [String] = []
    private(set) var lastProgress = LibraryScanner.Progress()
    /// Called with each progress report, on the scanner's thread while it waits: a test changes files here.
    var onProgress: (LibraryScanner.Progress) -> Void = { _ in }
    private let lock = NSLock()
    private(set) lazy var scanner = makeScanner(folders: [music.path])

    init() throws {
        home = try TemporaryDirectory(prefix: "library")
        music = home.url.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        index = LibraryIndex(path: home.url.appendingPathComponent("cache/quaver/library.db").path)
    }

    func makeScanner(folders: [String]) -> LibraryScanner {
        LibraryScanner(index: index, folders: folders.map { Array($0.utf8) },
                       note: { [weak self] line in self?.locked { self?.notes.append(line) } },
                       progress: { [weak self] progress in
                           self?.locked { self?.lastProgress = progress }
                           self?.onProgress(progress)
                       },
                       changed: {})
    }

    private func locked(_ body: () -> Void) {
        lock.lock()
        body()
        lock.unlock()
    }

    /// Scans everything and waits for the end.
    func scan() {
        scanner.scanAll()
        scanner.waitUntilIdle()
    }

    func write(_ files: [TaggedTree.File]) throws { try TaggedTree.write(files, under: music) }

    func catalog() throws -> LibraryCatalog { LibraryCatalog(try index.openForReading()) }

    func search(_ text: String, limit: Int = 1000) throws -> [LibraryTrack] {
        try catalog().search(SearchQuery(text), offset: 0, limit: limit).tracks
    }

    func titles(_ text: String) throws -> [String] { try search(text).map(\.title) }
}
