import ControlAPI
import PlayerCore

/// The text of a saved playlist: extended M3U in UTF-8, which every player reads.
///
/// ```
/// #EXTM3U
/// #QUAVER-ID:0f3c…            the playlist's identity (readers skip unknown `#` lines)
/// #QUAVER-CREATED:1764165600  when it was first saved, seconds since 1970
/// #EXTINF:215,Artist - Title
/// ../../../../Music/Artist/Album/01 Track.flac
/// ```
///
/// A local file under a music folder (the library's) is written relative to the playlist's folder, so a home folder copied
/// to another machine (or another user name) keeps working; other local files are absolute paths, and a
/// file name that is not UTF-8 is written as its `file://` URI (ASCII), so the rest of the file stays UTF-8.
struct PlaylistText {
    static let idKey = "#QUAVER-ID:"
    static let createdKey = "#QUAVER-CREATED:"
    /// Lines looked at for the first track (whose cover is the icon): the header and a few missing files.
    static let firstEntriesTried = 24

    /// The folder the playlist file is in, absolute, as bytes.
    let folder: [UInt8]
    /// The user's music folders, absolute, as bytes; none: every local file is written absolute.
    let musicFolders: [[UInt8]]

    func text(id: String, created: Int64, tracks: QueueSnapshot) -> [UInt8] {
        var out = Array("#EXTM3U\n\(Self.idKey)\(id)\n\(Self.createdKey)\(created)\n".utf8)
        out.reserveCapacity(tracks.count * 120)
        tracks.forEach { track in
            out += Array(extinf(track).utf8)
            out += reference(track.uri)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// `#EXTINF:<seconds>,<artist> - <title>`; -1 seconds when the length is not known.
    private func extinf(_ track: Track) -> String {
        let seconds = track.duration.map { String($0.components.seconds) } ?? "-1"
        let artist = track.tags.artists.joined(separator: ", ")
        let label = artist.isEmpty ? track.title : "\(artist) - \(track.title)"
        return "#EXTINF:\(seconds),\(Self.oneLine(label))\n"
    }

    /// A tag may hold anything: line ends and other controls would start a new line of the playlist.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// What a line of the playlist names a track by.
    func reference(_ uri: String) -> [UInt8] {
        guard let path = FileURI.pathBytes(fromURI: uri), String(validating: path, as: UTF8.self) != nil,
              !path.contains(where: { $0 < 0x20 }) else {
            return Array(Self.oneLine(uri).utf8)
        }
        guard musicFolders.contains(where: { isInside(path, $0) }) else { return path }
        return relative(path)
    }

    private func isInside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        path.count > folder.count && path.starts(with: folder) && path[folder.count] == UInt8(ascii: "/")
    }

    /// `path` from `folder`: up past the components they do not share, then down.
    private func relative(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let from = folder.split(separator: slash), to = path.split(separator: slash)
        var shared = 0
        while shared < min(from.count, to.count - 1), from[shared].elementsEqual(to[shared]) { shared += 1 }
        let up = Array(repeating: Array("..".utf8), count: from.count - shared)
        return Array((up + to[shared...].map(Array.init)).joined(separator: [slash]))
    }

    /// The id and creation time a file's first lines give, if any.
    static func header(of bytes: [UInt8]) -> (id: String?, created: Int64?) {
        var id: String?, created: Int64?
        for line in bytes.prefix(512).split(separator: UInt8(ascii: "\n")).prefix(4) {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: "\r ")
            if text.hasPrefix(idKey) { id = validID(String(text.dropFirst(idKey.count))) }
            if text.hasPrefix(createdKey) { created = Int64(text.dropFirst(createdKey.count)) }
        }
        return (id, created)
    }

    /// Ids become object paths: only hexadecimal digits are taken.
    static func validID(_ text: String) -> String? {
        (8...64).contains(text.count) && text.allSatisfy(\.isHexDigit) ? text.lowercased() : nil
    }

    /// Lines that name a track: not blank, not a `#` comment.
    static func entryCount(of bytes: [UInt8]) -> Int {
        var count = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") })
            else { continue }
            if first != UInt8(ascii: "#") { count += 1 }
        }
        return count
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        return String(text)
    }
}
