// StateStore: the session saved between runs and the background writer that keeps it. An adapter without
// C of ours: may import BaseDirectories, EventLoop, Foundation and Dispatch, never PlayerCore.
/// What the daemon remembers between runs: the queue and where it was in it.
///
/// Plain values only (no PlayerCore types), so this module stays independent of the core; the daemon
/// converts. Stored as compact JSON; empty and unknown fields are left out to keep a 20 000-track queue small.
public struct SavedState: Codable, Equatable, Sendable {
    /// The format written by this build. A file with another version is set aside on load, not guessed at.
    public static let currentVersion = 1

    public var version: Int
    public var queue: [SavedTrack]
    /// Index into `queue` of the current track; `nil` when nothing is current.
    public var currentIndex: Int?
    /// Position in the current track, in microseconds (MPRIS units).
    public var positionMicroseconds: Int64
    /// Linear volume, 0…1 and above (MPRIS `Volume`).
    public var volume: Double
    /// Playback rate (MPRIS `Rate`).
    public var rate: Double
    /// The MPRIS `LoopStatus` name: `None`, `Track` or `Playlist`. Kept as text so the core owns its meaning.
    public var loopMode: String
    public var shuffle: Bool
    /// Whether it was playing when saved (for `resume-paused = false`).
    public var wasPlaying: Bool
    /// Names this write of the whole state: a later `PositionMark` with the same revision updates its
    /// position. Absent in files written before position marks existed.
    public var revision: String?

    public init(queue: [SavedTrack] = [], currentIndex: Int? = nil, positionMicroseconds: Int64 = 0,
                volume: Double = 1, rate: Double = 1, loopMode: String = "None", shuffle: Bool = false,
                wasPlaying: Bool = false) {
        self.version = Self.currentVersion
        self.queue = queue
        self.currentIndex = currentIndex
        self.positionMicroseconds = positionMicroseconds
        self.volume = volume
        self.rate = rate
        self.loopMode = loopMode
        self.shuffle = shuffle
        self.wasPlaying = wasPlaying
    }

    /// Why a decoded state cannot be used as it is, or `nil` if it is consistent.
    func inconsistency() -> String? {
        if let index = currentIndex, !queue.indices.contains(index) {
            return "current index \(index) is outside the queue of \(queue.count) tracks"
        }
        if positionMicroseconds < 0 { return "negative position \(positionMicroseconds)" }
        if !volume.isFinite || volume < 0 { return "volume \(volume) is not a number ≥ 0" }
        if !rate.isFinite || rate <= 0 { return "rate \(rate) is not a number > 0" }
        return nil
    }
}

/// Where playing is — current track, position, playing or not — saved beside the state
/// (`StateFile.savePosition`) so that a long queue is not written again every second or at each track
/// change: it applies to the state written with the same `revision`, whose queue it indexes.
public struct PositionMark: Codable, Equatable, Sendable {
    public var revision: String
    public var currentIndex: Int?
    public var positionMicroseconds: Int64
    public var wasPlaying: Bool

    public init(of state: SavedState, revision: String) {
        self.revision = revision
        currentIndex = state.currentIndex
        positionMicroseconds = state.positionMicroseconds
        wasPlaying = state.wasPlaying
    }
}

/// One queue entry: where it is, and the tags last read from it (shown before the file is opened again).
public struct SavedTrack: Codable, Equatable, Sendable {
    public var uri: String
    public var metadata: SavedMetadata?

    public init(uri: String, metadata: SavedMetadata? = nil) {
        self.uri = uri
        self.metadata = metadata
    }
}

/// Cached tags of a track. Empty fields are unknown.
public struct SavedMetadata: Codable, Equatable, Sendable {
    public var title: String?
    public var artists: [String]
    public var album: String?
    public var albumArtists: [String]
    public var trackNumber: Int?
    public var discNumber: Int?
    public var lengthMicroseconds: Int64?
    /// `mpris:artUrl`, e.g. a `file://` URI of a cached cover.
    public var artURL: String?

    public init(title: String? = nil, artists: [String] = [], album: String? = nil, albumArtists: [String] = [],
                trackNumber: Int? = nil, discNumber: Int? = nil, lengthMicroseconds: Int64? = nil,
                artURL: String? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtists = albumArtists
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.lengthMicroseconds = lengthMicroseconds
        self.artURL = artURL
    }

    private enum CodingKeys: String, CodingKey {
        case title, artists, album, albumArtists, trackNumber, discNumber, lengthMicroseconds, artURL
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        artists = try c.decodeIfPresent([String].self, forKey: .artists) ?? []
        album = try c.decodeIfPresent(String.self, forKey: .album)
        albumArtists = try c.decodeIfPresent([String].self, forKey: .albumArtists) ?? []
        trackNumber = try c.decodeIfPresent(Int.self, forKey: .trackNumber)
        discNumber = try c.decodeIfPresent(Int.self, forKey: .discNumber)
        lengthMicroseconds = try c.decodeIfPresent(Int64.self, forKey: .lengthMicroseconds)
        artURL = try c.decodeIfPresent(String.self, forKey: .artURL)
    }

    /// Leaves out empty artist lists as well as `nil`s (the synthesized encoder would write `[]`).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(title, forKey: .title)
        if !artists.isEmpty { try c.encode(artists, forKey: .artists) }
        try c.encodeIfPresent(album, forKey: .album)
        if !albumArtists.isEmpty { try c.encode(albumArtists, forKey: .albumArtists) }
        try c.encodeIfPresent(trackNumber, forKey: .trackNumber)
        try c.encodeIfPresent(discNumber, forKey: .discNumber)
        try c.encodeIfPresent(lengthMicroseconds, forKey: .lengthMicroseconds)
        try c.encodeIfPresent(artURL, forKey: .artURL)
    }
}
