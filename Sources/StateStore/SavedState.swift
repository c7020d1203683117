// StateStore: the session saved between runs and the background writer that keeps it. An adapter without
// C of ours: may import BaseDirectories, EventLoop, Foundation and Dispatch, never PlayerCore.
/// What the daemon remembers between runs: the queue and where it was in it.
///
/// Plain values only (no PlayerCore types), so this module stays independent of the core; the daemon
/// converts. Stored as compact JSON (`StateJSON` writes it, this type's `Decodable` form reads it); empty and
/// unknown fields are left out to keep a 20 000-track queue small.
public struct SavedState: Decodable, Equatable, Sendable {
    /// The format written by this build. Version 1 files (one full URI and tag set per track) are read too;
    /// a file with any other version is set aside on load, not guessed at.
    public static let currentVersion = 2
    static let readableVersions = 1...2

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
    /// The sleep timer's mode as `SleepTimerSpelling` names it (`time`, `end-of-track`, `end-of-album`);
    /// absent when off.
    public var sleepTimer: String?
    /// A timed sleep's end, in microseconds since the Unix epoch (wall-clock, so it means the same moment
    /// after a restart).
    public var sleepDeadlineMicroseconds: Int64?
    /// The sound server's sink the user chose for the music (`SetOutput`); absent: follow the default.
    public var output: String?
    /// The equaliser's pre-amp then band gains, dB; absent when off.
    public var equalizer: [Double]?
    /// The preset the gains came from (`custom` for none); absent when off.
    public var equalizerPreset: String?
    /// The crossfade's seconds, 0…12, once set over D-Bus; absent: the configuration's.
    public var crossfadeSeconds: Double?

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

    private enum CodingKeys: String, CodingKey {
        case version, queue, folders, sharedTags, currentIndex, positionMicroseconds, volume, rate, loopMode, shuffle,
             wasPlaying, revision, sleepTimer, sleepDeadlineMicroseconds, output, equalizer, equalizerPreset, crossfadeSeconds
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        if version >= 2 {
            let folders = try c.decode([String].self, forKey: .folders)
            let shared = try c.decode([SharedTrackTags].self, forKey: .sharedTags)
            queue = try c.decode([PackedTrack].self, forKey: .queue).map { try $0.track(folders: folders, shared: shared) }
        } else {
            queue = try c.decode([SavedTrack].self, forKey: .queue)
        }
        currentIndex = try c.decodeIfPresent(Int.self, forKey: .currentIndex)
        positionMicroseconds = try c.decode(Int64.self, forKey: .positionMicroseconds)
        volume = try c.decode(Double.self, forKey: .volume)
        rate = try c.decode(Double.self, forKey: .rate)
        loopMode = try c.decode(String.self, forKey: .loopMode)
        shuffle = try c.decode(Bool.self, forKey: .shuffle)
        wasPlaying = try c.decode(Bool.self, forKey: .wasPlaying)
        revision = try c.decodeIfPresent(String.self, forKey: .revision)
        sleepTimer = try c.decodeIfPresent(String.self, forKey: .sleepTimer)
        sleepDeadlineMicroseconds = try c.decodeIfPresent(Int64.self, forKey: .sleepDeadlineMicroseconds)
        output = try c.decodeIfPresent(String.self, forKey: .output)
        equalizer = try c.decodeIfPresent([Double].self, forKey: .equalizer)
        equalizerPreset = try c.decodeIfPresent(String.self, forKey: .equalizerPreset)
        crossfadeSeconds = try c.decodeIfPresent(Double.self, forKey: .crossfadeSeconds)
    }

    /// Why a decoded state cannot be used as it is, or `nil` if it is consistent.
    func inconsistency() -> String? {
        if let index = currentIndex, !queue.indices.contains(index) {
            return "current index \(index) is outside the queue of \(queue.count) tracks"
        }
        if positionMicroseconds < 0 { return "negative position \(positionMicroseconds)" }
        if !volume.isFinite || volume < 0 { return "volume \(volume) is not a number ≥ 0" }
        if !rate.isFinite || rate <= 0 { return "rate \(rate) is not a number > 0" }
        if let seconds = crossfadeSeconds, !(0...12).contains(seconds) { return "crossfade \(seconds) s is not from 0 to 12" }
        return nil
    }
}

/// Where playing is — current track, position, playing or not — saved beside the state
/// (`StateFile.savePosition`) so that a long queue is not written again every second or at each track
/// change: it applies to the state written with the same `revision`, whose queue it indexes.
public struct PositionMark: Decodable, Equatable, Sendable {
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
public struct SavedTrack: Decodable, Equatable, Sendable {
    public var uri: String
    public var metadata: SavedMetadata?

    public init(uri: String, metadata: SavedMetadata? = nil) {
        self.uri = uri
        self.metadata = metadata
    }
}

/// Cached tags of a track. Empty fields are unknown.
public struct SavedMetadata: Decodable, Equatable, Sendable {
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
}

/// The tags that tracks of one album share, stored once in a version 2 file (its `sharedTags`).
struct SharedTrackTags: Decodable, Hashable, Sendable {
    var album: String?
    var artists: [String]
    var albumArtists: [String]
    var discNumber: Int?

    init(_ metadata: SavedMetadata) {
        (album, artists, albumArtists, discNumber) = (metadata.album, metadata.artists, metadata.albumArtists,
                                                      metadata.discNumber)
    }

    var isEmpty: Bool { album == nil && artists.isEmpty && albumArtists.isEmpty && discNumber == nil }

    private enum CodingKeys: String, CodingKey { case album, artists, albumArtists, discNumber }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        album = try c.decodeIfPresent(String.self, forKey: .album)
        artists = try c.decodeIfPresent([String].self, forKey: .artists) ?? []
        albumArtists = try c.decodeIfPresent([String].self, forKey: .albumArtists) ?? []
        discNumber = try c.decodeIfPresent(Int.self, forKey: .discNumber)
    }
}

/// One queue entry of a version 2 file: `f` numbers its URI's folder (up to and with the last "/") in
/// `folders`, `n` is the rest; `s` numbers its album's tags in `sharedTags`; its own tags follow.
struct PackedTrack: Decodable {
    var f: Int
    var n: String
    var s: Int?
    var title: String?
    var trackNumber: Int?
    var lengthMicroseconds: Int64?
    var artURL: String?

    struct BadReference: Error, CustomStringConvertible {
        let description: String
    }

    func track(folders: [String], shared: [SharedTrackTags]) throws -> SavedTrack {
        guard folders.indices.contains(f) else { throw BadReference(description: "folder \(f) of \(folders.count)") }
        let tags = try s.map { index in
            guard shared.indices.contains(index) else { throw BadReference(description: "shared tags \(index) of \(shared.count)") }
            return shared[index]
        }
        let metadata = SavedMetadata(title: title, artists: tags?.artists ?? [], album: tags?.album,
                                     albumArtists: tags?.albumArtists ?? [], trackNumber: trackNumber,
                                     discNumber: tags?.discNumber, lengthMicroseconds: lengthMicroseconds, artURL: artURL)
        return SavedTrack(uri: folders[f] + n, metadata: metadata == SavedMetadata() ? nil : metadata)
    }
}
