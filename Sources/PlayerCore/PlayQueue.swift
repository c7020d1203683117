/// Where new or moved tracks go in the queue.
public enum QueuePosition: Equatable, Sendable {
    case start
    case end
    /// Right after this track; ignored when the track is not in the queue.
    case after(TrackID)
}

/// A track to queue, with whatever is already known about it (a saved session, a background tag reader).
public struct QueueEntry: Equatable, Sendable {
    public var uri: String
    public var tags: TrackTags
    public var duration: Duration?
    public init(uri: String, tags: TrackTags = TrackTags(), duration: Duration? = nil) {
        self.uri = uri
        self.tags = tags
        self.duration = duration
    }
}

/// The tracks in queue order. Identities are never reused in the life of the queue, even after
/// clearing it, so a stale id from a client can never name a different entry (docs/mpris.md, "Track ids").
///
/// People queue whole libraries (100 000 tracks), so an entry is kept small: a `QueueSlot` of a few
/// numbers, its file name and title packed with all the others in `PackedTexts`, the tags an album's
/// tracks share stored once in `SharedTagTable`, and no cover bytes (only the latest reported cover is
/// kept, for the track that is playing). `Track` values are built from a slot when asked for.
///
/// Clients name tracks by id (GetTracksMetadata with 1 000 ids, tag updates from the background reader),
/// so `QueueIndex` answers in a binary search over runs of consecutive ids; appending keeps it up to date
/// cheaply, and edits in the middle renumber only the tracks after the edit, which the array shifts anyway.
struct PlayQueue {
    private(set) var slots: [QueueSlot] = []
    private var shared = SharedTagTable()
    private var texts = PackedTexts()
    private var places = QueueIndex()
    private var lastID: UInt64 = 0
    /// The newest embedded cover the engine reported, for that track only (it is the one playing).
    private var cover: (id: TrackID, image: CoverImage)?
    /// Whether the track loaded last can be sought, once the engine has said; it says again at every load.
    private var seekability: (id: TrackID, isSeekable: Bool)?

    var ids: [TrackID] { slots.map(\.id) }
    var count: Int { slots.count }
    var isEmpty: Bool { slots.isEmpty }
    var tracks: [Track] { slots.map(track(of:)) }
    /// An immutable copy that costs nothing until the queue changes (arrays are copied on write).
    var snapshot: QueueSnapshot { QueueSnapshot(slots: slots, shared: shared.values, texts: texts) }

    /// Whether every queued track is in `ids`: asked at each failure, so it compares counts first and walks the
    /// queue only when `ids` could hold all of it (copying the ids at each of 100 000 failures was quadratic).
    func isCovered(by ids: Set<TrackID>) -> Bool {
        ids.count >= slots.count && slots.allSatisfy { ids.contains($0.id) }
    }

    func index(of id: TrackID) -> Int? { places.index(of: id) }
    func contains(_ id: TrackID) -> Bool { index(of: id) != nil }
    /// `nil` when the track is not queued; `.some(nil)` when its seekability is not known yet.
    func isSeekable(_ id: TrackID) -> Bool?? {
        guard contains(id) else { return nil }
        guard let seekability, seekability.id == id else { return .some(nil) }
        return seekability.isSeekable
    }
    func track(_ id: TrackID) -> Track? { index(of: id).map { track(of: slots[$0]) } }
    func track(at index: Int) -> Track { track(of: slots[index]) }
    func uri(_ id: TrackID) -> String? { index(of: id).map { slots[$0].uri(in: texts) } }

    func id(at index: Int) -> TrackID? { slots.indices.contains(index) ? slots[index].id : nil }

    /// The track just before `index`, which is what MPRIS's TrackAdded calls AfterTrack; `nil` at the start.
    func id(before index: Int) -> TrackID? { index > 0 ? slots[index - 1].id : nil }

    /// Inserts the entries in order; returns their new ids, or `nil` when `position` names an unknown track.
    /// Only ids and numbers are filled in here, and the texts copied in one piece: the rest was converted
    /// by `PreparedEntries`.
    mutating func insert(_ entries: PreparedEntries, at position: QueuePosition) -> [TrackID]? {
        guard let start = insertionIndex(for: position), texts.canAbsorb(entries.texts) else { return nil }
        let sharedIndex = entries.shared.values.map { shared.index(of: $0) }
        let (shift, folders) = texts.absorb(entries.texts)
        var added = entries.slots
        for index in added.indices {
            lastID += 1
            added[index].id = TrackID(lastID)
            added[index].sharedIndex = sharedIndex[Int(added[index].sharedIndex)]
            added[index].move(by: shift, folders: folders)
        }
        if slots.isEmpty { slots = added } else { slots.insert(contentsOf: added, at: start) }
        renumber(from: start)
        return added.map(\.id)
    }

    /// Returns the index the track had, or `nil` if it was not queued.
    mutating func remove(_ id: TrackID) -> Int? {
        guard let index = index(of: id) else { return nil }
        release(slots.remove(at: index))
        forget(id)
        renumber(from: index)
        compactTextsIfWasteful()
        return index
    }

    /// Removes every track in `ids` in one pass over the queue (RemoveTracks of thousands).
    mutating func remove(_ ids: Set<TrackID>) {
        guard let first = slots.firstIndex(where: { ids.contains($0.id) }) else { return }
        for slot in slots[first...] where ids.contains(slot.id) { release(slot) }
        slots.removeAll { ids.contains($0.id) }
        for id in ids { forget(id) }
        renumber(from: first)
        compactTextsIfWasteful()
    }

    /// Moves a track; returns whether the queue order changed.
    mutating func move(_ id: TrackID, to position: QueuePosition) -> Bool {
        guard let from = index(of: id) else { return false }
        if case .after(let anchor) = position, anchor == id || !contains(anchor) { return false }
        let slot = slots.remove(at: from)
        renumber(from: from)
        let to = insertionIndex(for: position)!
        slots.insert(slot, at: to)
        renumber(from: min(from, to))
        return to != from
    }

    /// Drops the room arrays keep for growth (up to as much again as they hold) after a long edit.
    mutating func shrinkToFit() {
        texts.shrinkToFit()
        guard slots.capacity > slots.count + slots.count / 8 else { return }
        slots = slots.map { $0 }
    }

    mutating func removeAll() {
        slots.removeAll()
        places.removeAll()
        shared = SharedTagTable()
        texts = PackedTexts()
        cover = nil
        seekability = nil
    }

    /// Applies `edit` to the track; returns whether anything about it changed.
    mutating func update(_ id: TrackID, _ edit: (inout Track) -> Void) -> Bool {
        guard let index = index(of: id) else { return false }
        let before = track(of: slots[index])
        var after = before
        edit(&after)
        guard after != before else { return false }
        if let image = after.tags.coverImage { cover = (id, image) } else if cover?.id == id { cover = nil }
        if let isSeekable = after.isSeekable { seekability = (id, isSeekable) } else if seekability?.id == id { seekability = nil }
        if after.tags.title != before.tags.title {
            texts.release(slots[index].title)
            slots[index].title = texts.append(after.tags.title)
            compactTextsIfWasteful()
        }
        slots[index].set(after.tags, duration: after.duration, shared: &shared)
        return true
    }

    private func track(of slot: QueueSlot) -> Track {
        var track = slot.track(shared: shared.values, texts: texts)
        if let cover, cover.id == slot.id { track.tags.coverImage = cover.image }
        if let seekability, seekability.id == slot.id { track.isSeekable = seekability.isSeekable }
        return track
    }

    private mutating func release(_ slot: QueueSlot) {
        texts.release(slot.name)
        texts.release(slot.title)
    }

    /// Rewrites the texts without the unused bytes once these are the larger part (a long RemoveTracks,
    /// a tag reader filling in every title).
    private mutating func compactTextsIfWasteful() {
        guard texts.isWasteful else { return }
        let old = texts
        texts = old.compacted { rewrite in
            for index in slots.indices {
                rewrite(&slots[index].name)
                rewrite(&slots[index].title)
            }
        }
    }

    /// Drops the cover unless it is `current`'s: once its track stops playing, no one reads a cover's bytes
    /// (its file in the art cache is named by what MPRIS remembered), and a 15 MB cover stayed resident.
    mutating func keepCover(onlyOf current: TrackID?) {
        if let cover, cover.id != current { self.cover = nil }
    }

    private mutating func forget(_ id: TrackID) {
        if cover?.id == id { cover = nil }
        if seekability?.id == id { seekability = nil }
    }

    /// Brings `places` up to date for the tracks from `start` on.
    private mutating func renumber(from start: Int) {
        places.update(slots, from: start)
    }

    private func insertionIndex(for position: QueuePosition) -> Int? {
        switch position {
        case .start: return 0
        case .end: return slots.count
        case .after(let id): return index(of: id).map { $0 + 1 }
        }
    }
}

/// The queue as it was at one moment, to read off the loop thread (the state file is built from it on
/// a background queue). Holds no cover image.
public struct QueueSnapshot: Sendable {
    fileprivate let slots: [QueueSlot]
    fileprivate let shared: [SharedTags]
    fileprivate let texts: PackedTexts

    public var count: Int { slots.count }

    /// The tracks in queue order, built one at a time.
    public func forEach(_ body: (Track) -> Void) {
        for slot in slots { body(slot.track(shared: shared, texts: texts)) }
    }
}

/// Entries converted to the queue's stored form ahead of time — on another thread for a restored queue
/// of 100 000 tracks — so that queueing them only numbers them.
public struct PreparedEntries: Sendable {
    fileprivate var slots: [QueueSlot] = []
    fileprivate var shared = SharedTagTable()
    fileprivate var texts = PackedTexts()

    public init() {}

    public init(_ entries: [QueueEntry]) {
        slots.reserveCapacity(entries.count)
        for entry in entries { append(entry) }
    }

    public var count: Int { slots.count }
    public var isEmpty: Bool { slots.isEmpty }

    public mutating func append(_ entry: QueueEntry) {
        slots.append(QueueSlot(id: TrackID(0), uri: entry.uri, tags: entry.tags, duration: entry.duration,
                               shared: &shared, texts: &texts))
    }

    /// The entries back, as given (with the tags the queue keeps: no cover image).
    public var entries: [QueueEntry] {
        slots.map { slot in
            let track = slot.track(shared: shared.values, texts: texts)
            return QueueEntry(uri: track.uri, tags: track.tags, duration: track.duration)
        }
    }
}

/// One queue entry as stored: 40 bytes, and its file name and title in `PackedTexts`. Whether it can
/// be sought is not here: only that of the track loaded last is kept (`PlayQueue.seekability`).
struct QueueSlot: Sendable {
    var id: TrackID
    /// Nanoseconds; `Int64.min` when unknown.
    var length: Int64
    private var spans: Spans
    /// `Int32.min` when unknown; tags' numbers beyond 32 bits are clamped.
    var trackNumber: Int32
    var folder: UInt32
    /// Index into `SharedTagTable.values`; 0 is no shared tags.
    var sharedIndex: UInt32

    /// The two `TextSpan`s with their offsets and their lengths side by side: 12 bytes, not 16.
    private struct Spans: Sendable {
        var nameOffset: UInt32, titleOffset: UInt32
        var nameCount: UInt16, titleCount: UInt16
    }

    var name: TextSpan {
        get { TextSpan(offset: spans.nameOffset, count: spans.nameCount) }
        set { (spans.nameOffset, spans.nameCount) = (newValue.offset, newValue.count) }
    }

    var title: TextSpan {
        get { TextSpan(offset: spans.titleOffset, count: spans.titleCount) }
        set { (spans.titleOffset, spans.titleCount) = (newValue.offset, newValue.count) }
    }

    init(id: TrackID, uri: String, tags: TrackTags, duration: Duration?, shared: inout SharedTagTable,
         texts: inout PackedTexts) {
        self.id = id
        let (folder, name) = texts.appendURI(uri)
        let title = texts.append(tags.title)
        spans = Spans(nameOffset: name.offset, titleOffset: title.offset, nameCount: name.count, titleCount: title.count)
        self.folder = folder
        (length, trackNumber, sharedIndex) = (.min, .min, 0)
        set(tags, duration: duration, shared: &shared)
    }

    /// Everything but the texts.
    mutating func set(_ tags: TrackTags, duration: Duration?, shared: inout SharedTagTable) {
        length = duration.map(Self.nanoseconds) ?? .min
        trackNumber = tags.trackNumber.map { Int32(clamping: $0) } ?? .min
        sharedIndex = shared.index(of: SharedTags(tags))
    }

    func uri(in texts: PackedTexts) -> String { texts.uri(folder: folder, name: name) }

    /// Points at the same texts after they were appended `shift` bytes further, with renumbered folders.
    mutating func move(by shift: UInt32, folders: [UInt32]) {
        name.offset += shift
        if title != .absent { title.offset += shift }
        folder = folders[Int(folder)]
    }

    func track(shared: [SharedTags], texts: PackedTexts) -> Track {
        var tags = TrackTags()
        shared[Int(sharedIndex)].apply(to: &tags)
        tags.title = texts.string(title)
        tags.trackNumber = trackNumber == .min ? nil : Int(trackNumber)
        return Track(id: id, uri: uri(in: texts), tags: tags, duration: length == .min ? nil : .nanoseconds(length))
    }

    /// Whole nanoseconds, saturating (far beyond any track) so the sentinel is never reached.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min + 1 : .max }
        let (sum, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? (seconds < 0 ? .min + 1 : .max) : max(sum, .min + 1)
    }
}

/// The tags the tracks of one album usually have in common, stored once for all of them.
struct SharedTags: Hashable, Sendable {
    var album: String?
    var artists: [String]
    var albumArtists: [String]
    var genres: [String]
    var composers: [String]
    var discNumber: Int?

    init(_ tags: TrackTags) {
        album = tags.album
        artists = tags.artists
        albumArtists = tags.albumArtists
        genres = tags.genres
        composers = tags.composers
        discNumber = tags.discNumber
    }

    func apply(to tags: inout TrackTags) {
        tags.album = album
        tags.artists = artists
        tags.albumArtists = albumArtists
        tags.genres = genres
        tags.composers = composers
        tags.discNumber = discNumber
    }
}

/// Each distinct value once, numbered in the order first seen, so that queue entries hold a 4-byte number
/// instead of a copy: the tags an album's tracks share, the folders of queued URIs.
struct InternTable<Value: Hashable & Sendable>: Sendable {
    private(set) var values: [Value]
    private var numbers: [Value: UInt32]

    /// `first` is number 0.
    init(first: Value) {
        values = [first]
        numbers = [first: 0]
    }

    mutating func index(of value: Value) -> UInt32 {
        if let known = numbers[value] { return known }
        let number = UInt32(values.count)
        values.append(value)
        numbers[value] = number
        return number
    }
}

/// Number 0 is no shared tags. Emptied with the queue.
typealias SharedTagTable = InternTable<SharedTags>

extension InternTable where Value == SharedTags {
    init() { self.init(first: SharedTags(TrackTags())) }
}
