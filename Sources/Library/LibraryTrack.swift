// Library: the index of the user's music folders. An adapter: SQLite (the index), TagLib (the tags), EventLoop
// (results posted back to the loop); no C of its own.
import ControlAPI
import PublicText
import TagLib

/// One indexed file: where it is, what its file system says (to tell whether it changed), and its tags.
/// Tag text is bounded as the queue's is (PublicText): anyone can write a file's tags.
public struct LibraryTrack: Equatable, Sendable {
    /// The `file://` URI, percent-encoded from the path's bytes: the key, and what is queued.
    public var uri: String
    /// The path as text (bytes that are not UTF-8 shown as U+FFFD), for display and the file-name search.
    public var path: String
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    public var title = ""
    public var artists: [String] = []
    public var album = ""
    public var albumArtist = ""
    public var composer = ""
    public var genre = ""
    public var trackNumber = 0
    public var discNumber = 0
    public var year = 0
    public var lengthMilliseconds = 0
    public var replayGain = ReplayGainValues()
    public var musicBrainz = MusicBrainzIDs()
    public var hasCover = false

    public init(uri: String, path: String, size: Int64, modified: Int64) {
        self.uri = uri
        self.path = path
        self.size = size
        self.modified = modified
    }

    /// The last part of the path, searched like a tag (untagged files are found by their name).
    public var fileName: String { String(path.split(separator: "/").last ?? "") }

    /// The title, or the file name for an untagged file.
    public var displayTitle: String { title.isEmpty ? fileName : title }
}

public struct ReplayGainValues: Equatable, Sendable {
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?
    public init() {}
}

public struct MusicBrainzIDs: Equatable, Sendable {
    public var recording = ""
    public var album = ""
    public var artist = ""
    public var albumArtist = ""
    public init() {}
}

extension LibraryTrack {
    /// The track as TagLib read it: TagLib's unified keys (the same for Vorbis comments, ID3v2, MP4 and APE).
    public init(uri: String, path: String, size: Int64, modified: Int64, tags: FileTags) {
        self.init(uri: uri, path: path, size: size, modified: modified)
        let text = { (key: String) in PublicText.bounded(tags.first(key) ?? "") }
        title = text("TITLE")
        artists = PublicText.list(tags.values["ARTIST"] ?? []).filter { !$0.isEmpty }
        album = text("ALBUM")
        albumArtist = text("ALBUMARTIST")
        composer = text("COMPOSER")
        genre = text("GENRE")
        trackNumber = Self.leadingNumber(tags.first("TRACKNUMBER"))
        discNumber = Self.leadingNumber(tags.first("DISCNUMBER"))
        year = Self.leadingNumber(tags.first("DATE"))
        lengthMilliseconds = tags.lengthMilliseconds
        replayGain = Self.replayGain(tags)
        musicBrainz = Self.musicBrainz(tags, text)
        hasCover = tags.hasCover
    }

    /// `7/12` → 7, `1969-08-15` → 1969; 0 when there is none or it is absurd.
    static func leadingNumber(_ text: String?) -> Int {
        guard let text else { return 0 }
        let digits = text.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }.prefix(9)
        return Int(digits) ?? 0
    }

    /// `-6.50 dB` → -6.5.
    static func decibels(_ text: String?) -> Double? {
        guard let text else { return nil }
        let number = text.split(separator: " ").first.flatMap { Double($0) }
        return number.flatMap { $0.isFinite && abs($0) < 100 ? $0 : nil }
    }

    private static func replayGain(_ tags: FileTags) -> ReplayGainValues {
        var values = ReplayGainValues()
        values.trackGain = decibels(tags.first("REPLAYGAIN_TRACK_GAIN"))
        values.trackPeak = decibels(tags.first("REPLAYGAIN_TRACK_PEAK"))
        values.albumGain = decibels(tags.first("REPLAYGAIN_ALBUM_GAIN"))
        values.albumPeak = decibels(tags.first("REPLAYGAIN_ALBUM_PEAK"))
        return values
    }

    private static func musicBrainz(_ tags: FileTags, _ text: (String) -> String) -> MusicBrainzIDs {
        var ids = MusicBrainzIDs()
        ids.recording = text("MUSICBRAINZ_TRACKID")
        ids.album = text("MUSICBRAINZ_ALBUMID")
        ids.artist = text("MUSICBRAINZ_ARTISTID")
        ids.albumArtist = text("MUSICBRAINZ_ALBUMARTISTID")
        return ids
    }
}
