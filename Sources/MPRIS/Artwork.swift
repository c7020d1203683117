import Foundation
import PlayerCore

/// Finds the artwork to advertise as `mpris:artUrl` for a track.
///
/// GNOME Shell loads art through GIO and KDE through QUrl: both read `file://`, neither reads `data:`
/// (MPRIS.md), so an embedded cover is written once under `$XDG_CACHE_HOME/quaver/art/`, named by a hash of
/// its bytes: the same image gets the same URL (clients cache by URL) and a new image a new one. Names never
/// come from tag text, which could hold `/` or `..`.
public final class ArtworkCache {
    public let directory: URL
    /// Folder path → its cover file, remembered for `folderCoverLifetime` seconds: a queue of 20 000 files in
    /// one folder would otherwise list that folder 20 000 times. A cover added later shows up after that.
    private var folderCovers: [String: (cover: URL?, checkedAt: Int64)] = [:]
    static let folderCoverLifetime: Int64 = 60

    /// File names tried beside a local track when it has no embedded cover, in order of preference.
    static let folderCoverNames = ["cover", "folder", "front", "album", "albumart", "albumartsmall"]
    static let imageExtensions = ["jpg", "jpeg", "png", "webp", "gif", "bmp"]

    public init(directory: URL) {
        self.directory = directory
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
    /// and returns its location.
    func store(_ image: CoverImage) throws -> URL {
        let name = ArtworkCache.contentName(of: image.data) + "." + ArtworkCache.fileExtension(for: image.mimeType)
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
        let now = Int64(time(nil))
        if let known = folderCovers[folder.path], now - known.checkedAt < ArtworkCache.folderCoverLifetime {
            return known.cover
        }
        let cover = findCover(in: folder)
        folderCovers[folder.path] = (cover, now)
        return cover
    }

    private func findCover(in folder: URL) -> URL? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var byLowercaseName: [String: String] = [:]
        for name in names { byLowercaseName[name.lowercased()] = name }
        for base in ArtworkCache.folderCoverNames {
            for ext in ArtworkCache.imageExtensions {
                if let name = byLowercaseName["\(base).\(ext)"] { return folder.appendingPathComponent(name) }
            }
        }
        return nil
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

    static func fileExtension(for mimeType: String) -> String {
        switch mimeType.lowercased() {
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        case "image/bmp": return "bmp"
        default: return "jpg"
        }
    }
}
