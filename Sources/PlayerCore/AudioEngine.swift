// The contract between the player core and whatever produces sound.
//
//   Player (core, loop thread) ──commands──▶ AudioEngine (GStreamer playbin, or FakeEngine in tests)
//          ▲                                        │
//          └──────────── AudioEngineEvent ──────────┘  delivered on the loop thread, in order
//
// The engine never decides what plays next: the core tells it ahead of time (`prepareNext`), so that
// GStreamer's `about-to-finish` (a streaming thread) can switch gaplessly without waiting for the loop.

/// What the engine plays: a queue entry's identity and where its bytes are.
/// The same URI may be queued twice (or loop), so events name the `TrackID`, never the URI.
public struct EngineItem: Equatable, Sendable {
    public let id: TrackID
    public let uri: String
    /// The track played just before or just after it (in play order) is from the same album: ReplayGain's
    /// "auto" levels it by the album's gain then. Always false unless `Player.marksAlbumNeighbours`.
    public var sharesAlbumWithNeighbour: Bool
    /// The track played just before it (in play order) is from the same album: the joint into it stays gapless
    /// when crossfading (docs/ARCHITECTURE.md, "Crossfade"). Always false unless `Player.marksAlbumJoints`.
    public var continuesAlbum: Bool
    public init(id: TrackID, uri: String, sharesAlbumWithNeighbour: Bool = false, continuesAlbum: Bool = false) {
        self.id = id
        self.uri = uri
        self.sharesAlbumWithNeighbour = sharesAlbumWithNeighbour
        self.continuesAlbum = continuesAlbum
    }
}

/// Everything an engine tells the core. All events are delivered on the loop thread.
public enum AudioEngineEvent: Equatable, Sendable {
    /// The item's first samples are about to be heard (GStreamer STREAM_START): metadata switches now.
    /// After a gapless transition this names the item given to `prepareNext`.
    case trackStarted(TrackID)
    /// Tags of the item now playing, merged and de-duplicated by the engine (TAG messages repeat).
    case tags(TrackID, TrackTags)
    /// Length of the item now playing, once known; `nil` for live streams.
    case duration(TrackID, Duration?)
    /// Whether the item can be seeked (false for live streams).
    case seekable(TrackID, Bool)
    /// Network buffer fill in percent; 100 means playing can go on.
    case buffering(percent: Int)
    /// Seeks asked for with `seek(to:exact:)` have completed: the new position is what is heard. One
    /// report may answer several seeks asked in a burst (the engine merges those it cannot send yet).
    case seekCompleted(Duration)
    /// The item played to its end and nothing was prepared to follow it.
    case endOfStream(TrackID)
    /// The item cannot be played (or stopped playing): the core reports and skips it.
    case failed(TrackID, EngineError)
    /// The sound server asks us to pause (`true`, e.g. a phone call corks music) or to play again (`false`).
    case interruption(began: Bool)
    /// The sound output went away (`true`: a sound server or snapserver stopped; the engine tries it again
    /// every second and keeps the position) or plays again (`false`).
    case outputLost(began: Bool)
    /// The parts of the item that are downloaded, in playing time (a cached remote file); sent at most a few
    /// times a second while it downloads.
    case buffered(TrackID, [TimeSpan])
}

/// Why an item cannot be played, with the engine's own text for logs and D-Bus errors.
public struct EngineError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case notFound          // missing file, HTTP 404
        case unreadable        // permission, a directory
        case undecodable       // corrupt data, not media
        case missingPlugin     // no decoder installed for this format
        case outputUnavailable // sound server gone or refusing
        case network           // connection refused, reset, timeout
        case other
    }
    public let kind: Kind
    public let message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { "\(kind.rawValue): \(message)" }
}

/// A track that could not be played, as it was when it failed: the track itself may be gone from the
/// queue since (an opened file that failed is taken out again).
public struct TrackFailure: Equatable, Sendable {
    public let track: TrackID
    public let uri: String
    public let title: String
    public let error: EngineError
}

/// Tags as the engine reads them from the stream. Empty fields are unknown.
public struct TrackTags: Equatable, Sendable {
    public var title: String?
    public var artists: [String] = []
    public var album: String?
    public var albumArtists: [String] = []
    public var genres: [String] = []
    public var composers: [String] = []
    public var trackNumber: Int?
    public var discNumber: Int?
    /// Embedded cover image bytes (GST_TAG_IMAGE) and its MIME type, if the stream has one.
    public var coverImage: CoverImage?

    public init() {}
}

/// An embedded cover image exactly as found in the stream.
///
/// Two covers are equal when their digests, sizes and types are: TAG messages repeat with the whole cover
/// (22 in 10 s for MP3), and every one was compared byte by byte with the last, in the engine and again in
/// the queue; with a 15 MB cover a GetAll waited 1.1 s (debug build) while a track started.
public struct CoverImage: Equatable, Sendable {
    /// Larger covers are left out by the engine and never written as artwork: a tag can hold any bytes,
    /// and a real front cover is far smaller than this.
    public static let maximumByteCount = 16 << 20

    public let data: [UInt8]
    public let mimeType: String
    /// A 64-bit digest of `data`, the same in every run (the art cache names its files by it); not a
    /// security measure.
    public let digest: UInt64

    public init(data: [UInt8], mimeType: String) {
        self.data = data
        self.mimeType = mimeType
        digest = Self.digest(of: data)
    }

    public static func == (lhs: CoverImage, rhs: CoverImage) -> Bool {
        lhs.digest == rhs.digest && lhs.data.count == rhs.data.count && lhs.mimeType == rhs.mimeType
    }

    /// FNV-1a over 8-byte words (a byte at a time for the tail), then SplitMix64's finaliser to spread the
    /// bits: eight times fewer steps than over bytes, about 2 ms for 15 MB.
    static func digest(of bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01b3
            }
            for byte in raw[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        hash = (hash ^ hash >> 30) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ hash >> 27) &* 0x94d0_49bb_1331_11eb
        return hash ^ hash >> 31
    }
}

/// Receives engine events on the loop thread.
public protocol AudioEngineDelegate: AnyObject {
    func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent)
}

/// A sound producer the core drives. All methods are called on the loop thread and return at once;
/// results arrive later as events.
public protocol AudioEngine: AnyObject {
    var delegate: AudioEngineDelegate? { get set }

    /// Replaces whatever is playing with `item`, paused at `position` if `playing` is false.
    /// A `.trackStarted(item.id)` follows once it is loaded, or `.failed(item.id, …)`: never from inside the call,
    /// since the core answers a failure by loading the next item (a queue of failures would recurse).
    func load(_ item: EngineItem, at position: Duration, playing: Bool)
    /// `load` for a track the user chose (Next, Previous, GoTo, OpenUri): an engine that fades (FadingEngine)
    /// lets the track heard now fade out first. Others load at once (the default).
    func skip(to item: EngineItem, at position: Duration, playing: Bool)
    /// The item to switch to, gaplessly, when the current one ends; `nil` to stop at the end.
    /// May be called at any time; the latest call wins.
    func prepareNext(_ item: EngineItem?)
    /// New facts about the loaded item (same id and URI; `sharesAlbumWithNeighbour` changed because its
    /// neighbours' tags became known or the queue changed): what is heard from now on follows them.
    func update(_ item: EngineItem)
    func play()
    /// Plays as `play` does, on a new output stream connected to the sound server's sink `device` (nil: where
    /// the server puts it), started again where playback is: the old stream was moved by the server while
    /// paused (its sink removed, then back), and its clock no longer tells where playback is.
    func playOnNewOutput(device: String?)
    func pause()
    /// Releases the output and forgets the current item.
    func stop()
    /// Seeks the current item. `exact` seeks to the sample; otherwise to a nearby key unit, faster.
    func seek(to position: Duration, exact: Bool)
    /// Playback speed, 0.5…2.0, pitch kept.
    func setRate(_ rate: Double)
    /// Linear volume, 0…1 (1 is 0 dB).
    func setVolume(_ volume: Double)
    /// Seconds the end of a track and the start of the next overlap, mixed along an equal-power curve, at a joint
    /// not within an album (`EngineItem.continuesAlbum`); 0 keeps every joint gapless.
    func setCrossfade(seconds: Double)
    /// The position heard now, read live; `nil` when nothing is loaded.
    var position: Duration? { get }
    /// What the engine knows of the loaded item's delivery (bytes, retries, bitrate, decoder); `nil` when
    /// nothing is loaded. It may ask the pipeline, so it is read on request, never per change.
    func statistics() -> DeliveryStatistics?
}

extension AudioEngine {
    /// An engine that mixes no two tracks (a fake) keeps every joint gapless.
    public func setCrossfade(seconds: Double) {}

    /// An engine whose output keeps no clock of its own (a fake) just plays.
    public func playOnNewOutput(device: String?) { play() }

    /// An engine without figures (a fake) has none to give.
    public func statistics() -> DeliveryStatistics? { nil }
}

extension AudioEngine {
    public func skip(to item: EngineItem, at position: Duration, playing: Bool) {
        load(item, at: position, playing: playing)
    }
}

/// A queue entry's identity: new for every entry, stable while the entry is in the queue.
public struct TrackID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: TrackID, b: TrackID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "track \(rawValue)" }
}
