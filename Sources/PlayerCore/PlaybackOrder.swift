/// The order tracks play in.
///
/// Without shuffle a round is the queue order, read from the queue itself: a copy of its ids would cost
/// 8 bytes a track and a copy again at every edit (every slice of a long AddTracks). With shuffle a round
/// is a permutation in which the track that was current when shuffling began comes first, so every other
/// track plays once before any repeats; the following round is a new permutation, drawn as soon as someone
/// asks what comes after the last track, because the engine must be told the wrap-around track ahead of time.
struct PlaybackOrder {
    private(set) var isShuffled = false
    /// Shuffled only: this round's permutation.
    private var round: [TrackID] = []
    /// Shuffled only: the round that follows this one, once drawn.
    private var nextRound: [TrackID]?
    private var generator: any RandomNumberGenerator

    init(generator: any RandomNumberGenerator) {
        self.generator = generator
    }

    /// Starts a new round over `queue`, with `current` first when shuffled.
    mutating func reset(queue: PlayQueue, current: TrackID?, shuffled: Bool) {
        isShuffled = shuffled
        nextRound = nil
        guard shuffled else { round = []; return }
        let rest = queue.ids.filter { $0 != current }.shuffled(using: &generator)
        round = (current.map { [$0] } ?? []) + rest
    }

    /// Where this round begins.
    func first(in queue: PlayQueue) -> TrackID? { isShuffled ? round.first : queue.id(at: 0) }

    func hasNext(after current: TrackID, wrap: Bool, in queue: PlayQueue) -> Bool {
        guard let index = place(of: current, in: queue) else { return false }
        return index + 1 < length(queue) || wrap
    }

    func hasPrevious(before current: TrackID, wrap: Bool, in queue: PlayQueue) -> Bool {
        previous(before: current, wrap: wrap, in: queue) != nil
    }

    /// The track after `current`, drawing the next round if it wraps; nothing is committed.
    mutating func upcoming(after current: TrackID, wrap: Bool, in queue: PlayQueue) -> TrackID? {
        guard let index = place(of: current, in: queue) else { return nil }
        if index + 1 < length(queue) { return id(at: index + 1, in: queue) }
        guard wrap else { return nil }
        return isShuffled ? followingRound().first : first(in: queue)
    }

    /// Moves on from `current` as `upcoming` said, entering the next round at the wrap.
    mutating func moveForward(from current: TrackID, wrap: Bool, in queue: PlayQueue) -> TrackID? {
        moveForward(from: current, skipping: [], wrap: wrap, in: queue)
    }

    /// Moves on from `current` to the first track that is not `leaving` (they are about to be removed),
    /// entering the next round if it wraps.
    mutating func moveForward(from current: TrackID, skipping leaving: Set<TrackID>, wrap: Bool,
                              in queue: PlayQueue) -> TrackID? {
        guard let index = place(of: current, in: queue) else { return nil }
        if let next = firstTrack(from: index + 1, notIn: leaving, in: queue) { return next }
        guard wrap else { return nil }
        if isShuffled {
            round = followingRound()
            nextRound = nil
        }
        return firstTrack(from: 0, notIn: leaving, in: queue)
    }

    func previous(before current: TrackID, wrap: Bool, in queue: PlayQueue) -> TrackID? {
        guard let index = place(of: current, in: queue) else { return nil }
        if index > 0 { return id(at: index - 1, in: queue) }
        return wrap && length(queue) > 0 ? id(at: length(queue) - 1, in: queue) : nil
    }

    /// The first track of a fresh round: where playing starts again after the end of the queue.
    mutating func startOver(in queue: PlayQueue) -> TrackID? {
        if isShuffled { round = followingRound() }
        nextRound = nil
        return first(in: queue)
    }

    /// The user picked `id`. When shuffled it moves right after `current`, so the tracks not yet
    /// played in this round still come after it.
    mutating func jump(to id: TrackID, from current: TrackID?) {
        // `current` may be gone already: a file opened over the playing track that failed is taken out
        // before the player goes back to the track it was opened over.
        guard isShuffled, let current, id != current, round.contains(current),
              let from = round.firstIndex(of: id) else { return }
        round.remove(at: from)
        round.insert(id, at: round.firstIndex(of: current)! + 1)
    }

    /// New tracks play in this round: at their queue place, or when shuffled at random places after `current`.
    mutating func didInsert(_ ids: [TrackID], current: TrackID?) {
        guard isShuffled else { return }
        let played = current.flatMap { round.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for id in ids { round.insert(id, at: Int.random(in: played...round.count, using: &generator)) }
        guard var upcoming = nextRound else { return }
        for id in ids { upcoming.insert(id, at: Int.random(in: 0...upcoming.count, using: &generator)) }
        nextRound = upcoming
    }

    mutating func didRemove(_ ids: Set<TrackID>) {
        guard isShuffled else { return }
        round.removeAll { ids.contains($0) }
        nextRound?.removeAll { ids.contains($0) }
    }

    // The round as a sequence: the permutation, or the queue (moving a track changes only the latter).

    private func place(of id: TrackID, in queue: PlayQueue) -> Int? {
        isShuffled ? round.firstIndex(of: id) : queue.index(of: id)
    }

    private func id(at index: Int, in queue: PlayQueue) -> TrackID {
        isShuffled ? round[index] : queue.id(at: index)!
    }

    private func length(_ queue: PlayQueue) -> Int { isShuffled ? round.count : queue.count }

    private func firstTrack(from start: Int, notIn leaving: Set<TrackID>, in queue: PlayQueue) -> TrackID? {
        var index = start
        while index < length(queue) {
            let candidate = id(at: index, in: queue)
            if !leaving.contains(candidate) { return candidate }
            index += 1
        }
        return nil
    }

    /// Shuffled only: the next round, drawn once.
    private mutating func followingRound() -> [TrackID] {
        if let nextRound { return nextRound }
        var drawn = round.shuffled(using: &generator)
        // The same track twice in a row at the joint would sound like a repeat, not a shuffle.
        if drawn.count > 1, drawn.first == round.last {
            drawn.swapAt(0, Int.random(in: 1..<drawn.count, using: &generator))
        }
        nextRound = drawn
        return drawn
    }
}
