import CoverArt
import FoundationEssentials
import Glibc
import Logging
import PlayerCore

/// The files written for embedded covers under `$XDG_CACHE_HOME/quaver/art/` (`ArtFolder`: written without
/// following links, in a folder of ours only), kept within a size. Past `maximumBytes` the least recently
/// advertised covers are removed, never the last few handed out (`protectedCount`): the current track's
/// Metadata and notification name them. Without a usable folder (another user's, say) no embedded cover is
/// advertised, said once in the log; covers beside the track still are.
public final class ArtStore {
    /// A few hundred covers of a usual size; at least one of `CoverImage.maximumByteCount`.
    public static let defaultMaximumBytes = 64 << 20
    /// The covers handed out last (the current track's, the one before, the one becoming current).
    static let protectedCount = 4

    let directory: URL
    private let maximumBytes: Int
    private let log: Logger
    /// Opened at the first cover, so a daemon that never shows one never creates the folder.
    private var folder: Result<ArtFolder, Error>?
    /// File names handed out, newest last, at most `protectedCount`.
    private var protected: [String] = []
    /// The folder's bytes when it was last listed, plus what was written since (nil until the first listing): the
    /// folder is listed again only once this passes `maximumBytes`, not for every cover handed out (a directory
    /// read and a stat per file each time).
    private var knownBytes: Int?

    init(directory: URL, maximumBytes: Int, log: Logger) {
        self.directory = directory
        self.maximumBytes = maximumBytes
        self.log = log
    }

    /// The file holding `cover`, written if it is not there yet; nil for what may not be shown: more than
    /// `CoverImage.maximumByteCount` bytes, not an image by its first bytes, or too many pixels. The file
    /// extension comes from the bytes, never from the tag's MIME type.
    func file(for cover: CoverImage) -> URL? {
        let bytes = cover.data
        guard bytes.count <= CoverImage.maximumByteCount, case .success(let header) = CoverFile.vetted(bytes),
              let folder = openFolder() else { return nil }
        let name = ArtworkCache.contentName(of: cover) + "." + header.format.rawValue
        if folder.regularFile(name) != nil {
            folder.touch(name)  // now the most recently advertised
        } else {
            do {
                try folder.write(bytes, as: name)
                knownBytes? += bytes.count
            } catch {
                log.warning("cannot write cover art \(directory.appendingPathComponent(name).path): \(error)")
                return nil
            }
        }
        protect(name)
        evictOldest(in: folder)
        return directory.appendingPathComponent(name)
    }

    /// A regular file of this store (a link at a cover's name is not one of ours).
    func isPresent(_ file: URL) -> Bool {
        guard file.deletingLastPathComponent().path == directory.path, case .success(let folder)? = folder else { return false }
        return folder.regularFile(file.lastPathComponent) != nil
    }

    private func openFolder() -> ArtFolder? {
        if folder == nil {
            folder = Result { try ArtFolder(directory) }
            if case .failure(let error) = folder { log.error("\(error); embedded covers are not shown") }
        }
        return try? folder?.get()
    }

    private func protect(_ name: String) {
        protected.removeAll { $0 == name }
        protected.append(name)
        if protected.count > Self.protectedCount { protected.removeFirst() }
    }

    /// Removes the covers advertised longest ago (by modification time, renewed at each use) until the
    /// folder is within `maximumBytes`, leaving the protected ones.
    private func evictOldest(in folder: ArtFolder) {
        if let knownBytes, knownBytes <= maximumBytes { return }
        var files = folder.regularFiles()
        var total = files.reduce(0) { $0 + $1.bytes }
        defer { knownBytes = total }
        guard total > maximumBytes else { return }
        files.sort { $0.modified < $1.modified }
        for file in files where total > maximumBytes && !protected.contains(file.name) {
            if folder.remove(file.name) { total -= file.bytes }
        }
    }
}
