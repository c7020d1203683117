import Foundation
import PlayerCore

/// Finds the artwork to advertise as `mpris:artUrl` for a track.
///
/// GNOME Shell loads art through GIO and KDE through QUrl: both read `file://`, neither reads `data:`
/// (docs/mpris.md, "Artwork"), so an embedded cover is written once under `$XDG_CACHE_HOME/quaver/art/`, named by a hash of
/// its bytes: the same image gets the same URL (clients cache by URL) and a new image a new one. Names never
/// come from tag text, which could hold `/` or `..`.
public struct ArtworkCache {
    public let directory: URL

    /// File names tried beside a local track when it has no embedded cover, in order of preference.
    static let folderCoverNames = ["cover", "folder", "front", "album", "albumart", "albumartsmall"]
    static let imageExtensions = ["jpg", "jpeg", "png", "webp", "gif", "bmp"]

    /// Folder listings, shared by copies of this cache: a queue of 20 000 tracks from one folder must not
    /// list that folder 20 000 times.
    private let folders: FolderListings

    /// `folderListingLifetime`: seconds a folder's listing is reused; a cover added later shows up after that.
    public init(directory: URL, folderListingLifetime: Double = 10) {
        self.directory = directory
        folders = FolderListings(lifetime: folderListingLifetime)
    }

    /// `$XDG_CACHE_HOME/quaver/art`, falling back to `~/.cache/quaver/art`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("quaver/art", isDirectory: true)
    }

    /// The `file://` URL to advertise for a track, or nil when it has no artwork.
    public func artURL(trackURI: String, embedded: CoverImage?) -> String? {
        if let embedded, let file = try? store(embedded) { return file.absoluteString }
        return folderCover(besides: trackURI)?.absoluteString
    }

    /// Writes the image once (temporary file, then rename, so a client never reads half an image)
    /// and returns its location; nil for what is not an image. Only images, by their first bytes (the MIME type in the tag is whatever
    /// the file says), of at most `CoverImage.maximumByteCount`: anything else is refused, never written.
    func store(_ image: CoverImage) throws -> URL? {
        guard image.data.count <= CoverImage.maximumByteCount, let format = ImageFormat(magic: image.data) else {
            return nil
        }
        let name = ArtworkCache.contentName(of: image.data) + "." + format.rawValue
        let target = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(name).\(getpid()).tmp")
        try Data(image.data).write(to: temporary)
        if rename(temporary.path, target.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
        return target
    }

    /// A cover image file in the track's folder (`cover.jpg`, `folder.png`, `front.jpg`, …), matched without
    /// regard to case; only for local files.
    func folderCover(besides trackURI: String) -> URL? {
        guard let url = URL(string: trackURI), url.isFileURL else { return nil }
        let folder = url.deletingLastPathComponent()
        return folders.cover(in: folder.path).map { folder.appendingPathComponent($0) }
    }

    /// 64-bit FNV-1a of the bytes plus their count: a cache name, not a security measure.
    static func contentName(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(format: "%016llx-%llx", hash, UInt64(bytes.count))
    }
}

/// The image formats written as artwork, known by their signature bytes; the raw value is the file extension.
enum ImageFormat: String {
    case png, jpg, gif, webp, bmp

    init?(magic bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpg }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts(Array("BM".utf8)), bytes.count > 26 { self = .bmp }
        else { return nil }
    }
}

/// The cover file name found in each folder lately (see `ArtworkCache.folderCover`), listed at most once per
/// `lifetime` seconds. Used on the loop thread only, like the rest of the adapter.
private final class FolderListings {
    private let lifetime: Double
    private var found: [String: (cover: String?, listedAt: Date)] = [:]

    init(lifetime: Double) {
        self.lifetime = lifetime
    }

    func cover(in folder: String) -> String? {
        let now = Date()
        if let known = found[folder], now.timeIntervalSince(known.listedAt) < lifetime { return known.cover }
        let cover = Self.list(folder)
        found[folder] = (cover, now)
        return cover
    }

    /// The preferred cover name among the folder's files, matched without regard to case. A folder may hold
    /// a whole library: listing 100 000 names held the loop for 0.15 s, so a folder whose own size says it
    /// holds more than a few thousand is only asked for the usual spellings (`probe`).
    private static func list(_ folder: String) -> String? {
        guard ownSize(folder) <= largestFolderListed else { return probe(folder) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var best: (rank: Int, name: String)?
        for name in names where name.utf8.count <= longestCoverName {
            guard let rank = rankByLowercaseName[name.lowercased()], rank < best?.rank ?? .max else { continue }
            best = (rank, name)
        }
        return best?.name
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

    /// The first cover name, in order of preference, that exists in lower case, capitalised or upper case.
    private static func probe(_ folder: String) -> String? {
        let spellings = rankByLowercaseName.sorted { $0.value < $1.value }.flatMap { name, _ in
            [name, name.prefix(1).uppercased() + name.dropFirst(), name.uppercased()]
        }
        return spellings.first { FileManager.default.fileExists(atPath: folder + "/" + $0) }
    }

    /// `cover.jpg` → 0, `cover.jpeg` → 1, … in the order of preference of `folderCoverNames` and `imageExtensions`.
    private static let rankByLowercaseName: [String: Int] = {
        let names = ArtworkCache.folderCoverNames.flatMap { base in ArtworkCache.imageExtensions.map { "\(base).\($0)" } }
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }()

    private static let longestCoverName = rankByLowercaseName.keys.map(\.utf8.count).max() ?? 0
}
