import CoverArt
import FoundationEssentials
import Glibc
import Logging
import PlayerCore

/// The cover file found in each folder lately (see `ArtworkCache.folderCover`), listed at most once per
/// `lifetime` seconds. Used on the loop thread only, like the rest of the adapter.
///
/// A cover beside the track comes with the album, and an album unpacked from an archive may hold anything
/// under that name: `cover.jpg -> ../../.ssh/id_rsa`, a text file, a header announcing 20 000 × 20 000
/// pixels. Each name found is vetted (`CoverFile.header`): a regular file, not a symbolic link, at most
/// `CoverImage.maximumByteCount` bytes, an image by its first bytes and within `ImageHeader.maximumSide`;
/// the first that passes, in order of preference, is the folder's cover, and each refused one is logged
/// once per listing.
final class FolderListings {
    private let lifetime: Double
    private let log: Logger
    private var found: [String: (cover: String?, listedAt: Date)] = [:]

    init(lifetime: Double, log: Logger) {
        self.lifetime = lifetime
        self.log = log
    }

    func cover(in folder: String) -> String? {
        let now = Date()
        if let known = found[folder], now.timeIntervalSince(known.listedAt) < lifetime { return known.cover }
        let cover = candidates(in: folder).first { isShowable(folder + "/" + $0) }
        found[folder] = (cover, now)
        return cover
    }

    private func isShowable(_ path: String) -> Bool {
        switch CoverFile.header(at: path, maximumBytes: CoverImage.maximumByteCount) {
        case .success: return true
        case .failure(.unreadable(errno: ENOENT)): return false  // a probed spelling that is not there
        case .failure(let refusal):
            log.notice("not shown as cover art: \(path): \(refusal)")
            return false
        }
    }

    /// The cover names among the folder's files, in order of preference, matched without regard to case.
    /// A folder may hold a whole library: listing 100 000 names held the loop for 0.15 s, so a folder whose
    /// own size says it holds more than a few thousand is only asked for the usual spellings.
    private func candidates(in folder: String) -> [String] {
        guard Self.ownSize(folder) <= Self.largestFolderListed else { return Self.spellings }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.utf8.count <= Self.longestCoverName }
            .compactMap { name in Self.rankByLowercaseName[name.lowercased()].map { (rank: $0, name: name) } }
            .sorted { $0.rank < $1.rank }.map(\.name)
    }

    /// On ext4 a folder's size grows by about 32 bytes per name: 256 KiB is some 8 000 files.
    private static let largestFolderListed = 256 << 10

    /// The folder's own size by stat(2), 0 when it cannot be read. FileManager's attributesOfItem also
    /// looks up the owner's user and group names and boxes every attribute, code that would otherwise
    /// become resident at the first track played for this one number.
    private static func ownSize(_ folder: String) -> Int {
        var status = stat()
        return stat(folder, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Every cover name, in order of preference, in lower case, capitalised and upper case.
    private static let spellings = rankByLowercaseName.sorted { $0.value < $1.value }.flatMap { name, _ in
        [name, name.prefix(1).uppercased() + name.dropFirst(), name.uppercased()]
    }

    /// `cover.jpg` → 0, `cover.jpeg` → 1, … in the order of preference of `folderCoverNames` and `imageExtensions`.
    private static let rankByLowercaseName: [String: Int] = {
        let names = ArtworkCache.folderCoverNames.flatMap { base in ArtworkCache.imageExtensions.map { "\(base).\($0)" } }
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }()

    private static let longestCoverName = rankByLowercaseName.keys.map(\.utf8.count).max() ?? 0
}
