import CoverArt
import Foundation
import Logging
import PlayerCore

/// Finds the artwork to advertise as `mpris:artUrl` for a track.
///
/// GNOME Shell loads art through GIO and KDE through QUrl: both read `file://`, neither reads `data:`
/// (docs/mpris.md, "Artwork"), so an embedded cover is written once under `$XDG_CACHE_HOME/quaver/art/`, named by a hash of
/// its bytes: the same image gets the same URL (clients cache by URL) and a new image a new one. Names never
/// come from tag text, which could hold `/` or `..`. Whatever is advertised, embedded or beside the track,
/// was vetted first (`CoverFile`): an image by its bytes, of a bounded size in bytes and in pixels.
public struct ArtworkCache {
    public var directory: URL { store.directory }

    /// File names tried beside a local track when it has no embedded cover, in order of preference.
    static let folderCoverNames = ["cover", "folder", "front", "album", "albumart", "albumartsmall"]
    static let imageExtensions = ["jpg", "jpeg", "png", "webp", "gif", "bmp"]

    /// The files written for embedded covers, shared by copies of this cache (Metadata and notifications).
    private let store: ArtStore
    /// Folder listings, shared by copies of this cache: a queue of 20 000 tracks from one folder must not
    /// list that folder 20 000 times.
    private let folders: FolderListings

    /// `folderListingLifetime`: seconds a folder's listing is reused; a cover added later shows up after that.
    /// `maximumBytes`: the art folder's size past which the oldest covers are removed.
    public init(directory: URL, folderListingLifetime: Double = 10, maximumBytes: Int = ArtStore.defaultMaximumBytes,
                log: Logger = Logger(label: "quaver.artwork")) {
        store = ArtStore(directory: directory, maximumBytes: maximumBytes, log: log)
        folders = FolderListings(lifetime: folderListingLifetime, log: log)
    }

    /// `$XDG_CACHE_HOME/quaver/art`, falling back to `~/.cache/quaver/art`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("quaver/art", isDirectory: true)
    }

    /// The `file://` URL to advertise for a track, or nil when it has no artwork that may be shown.
    public func artURL(trackURI: String, embedded: CoverImage?) -> String? {
        if let embedded, let file = store.file(for: embedded) { return file.absoluteString }
        return folderCover(besides: trackURI)?.absoluteString
    }

    /// Whether a URL this cache gave out still names its file (an evicted cover is written again when its
    /// track plays again).
    func isPresent(_ url: String) -> Bool {
        guard let file = URL(string: url), file.isFileURL else { return false }
        return store.isPresent(file)
    }

    /// A cover image file in the track's folder (`cover.jpg`, `folder.png`, `front.jpg`, …), matched without
    /// regard to case; only for local files.
    func folderCover(besides trackURI: String) -> URL? {
        guard let url = URL(string: trackURI), url.isFileURL else { return nil }
        let folder = url.deletingLastPathComponent()
        return folders.cover(in: folder.path).map { folder.appendingPathComponent($0) }
    }

    /// The art cache's name for a cover: its digest and its size, in hex.
    static func contentName(of cover: CoverImage) -> String {
        String(cover.digest, radix: 16) + "-" + String(cover.data.count, radix: 16)
    }
}
