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
/// Clients name tracks by id (GetTracksMetadata with 1 000 ids, tag updates from the background reader),
/// so `indexByID` answers in constant time; appending keeps it up to date cheaply, and edits in the
/// middle renumber only the tracks after the edit, which the array shifts anyway.
struct PlayQueue {
    private(set) var tracks: [Track] = []
    private var indexByID: [TrackID: Int] = [:]
    private var lastID: UInt64 = 0

    var ids: [TrackID] { tracks.map(\.id) }
    var isEmpty: Bool { tracks.isEmpty }

    func index(of id: TrackID) -> Int? { indexByID[id] }
    func contains(_ id: TrackID) -> Bool { index(of: id) != nil }
    func track(_ id: TrackID) -> Track? { index(of: id).map { tracks[$0] } }

    /// The track just before `index`, which is what MPRIS's TrackAdded calls AfterTrack; `nil` at the start.
    func id(before index: Int) -> TrackID? { index > 0 ? tracks[index - 1].id : nil }

    /// Inserts the entries in order; returns their new ids, or `nil` when `position` names an unknown track.
    mutating func insert(_ entries: [QueueEntry], at position: QueuePosition) -> [TrackID]? {
        guard let start = insertionIndex(for: position) else { return nil }
        let added = entries.map { entry -> Track in
            lastID += 1
            return Track(id: TrackID(lastID), uri: entry.uri, tags: entry.tags, duration: entry.duration)
        }
        tracks.insert(contentsOf: added, at: start)
        renumber(from: start)
        return added.map(\.id)
    }

    /// Returns the index the track had, or `nil` if it was not queued.
    mutating func remove(_ id: TrackID) -> Int? {
        guard let index = index(of: id) else { return nil }
        tracks.remove(at: index)
        indexByID[id] = nil
        renumber(from: index)
        return index
    }

    /// Moves a track; returns whether the queue order changed.
    mutating func move(_ id: TrackID, to position: QueuePosition) -> Bool {
        guard let from = index(of: id) else { return false }
        if case .after(let anchor) = position, anchor == id || !contains(anchor) { return false }
        let track = tracks.remove(at: from)
        indexByID[id] = nil
        renumber(from: from)
        let to = insertionIndex(for: position)!
        tracks.insert(track, at: to)
        renumber(from: min(from, to))
        return to != from
    }

    mutating func removeAll() {
        tracks.removeAll()
        indexByID.removeAll()
    }

    /// Brings `indexByID` up to date for the tracks from `start` on.
    private mutating func renumber(from start: Int) {
        for index in start..<tracks.count { indexByID[tracks[index].id] = index }
    }

    /// Applies `edit` to the track; returns whether anything about it changed.
    mutating func update(_ id: TrackID, _ edit: (inout Track) -> Void) -> Bool {
        guard let index = index(of: id) else { return false }
        let before = tracks[index]
        edit(&tracks[index])
        return tracks[index] != before
    }

    private func insertionIndex(for position: QueuePosition) -> Int? {
        switch position {
        case .start: return 0
        case .end: return tracks.count
        case .after(let id): return index(of: id).map { $0 + 1 }
        }
    }
}
