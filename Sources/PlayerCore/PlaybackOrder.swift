/// The order tracks play in.
///
/// Without shuffle a round is the queue order. With shuffle a round is a permutation in which the
/// track that was current when shuffling began comes first, so every other track plays once before
/// any repeats; the following round is a new permutation, drawn as soon as someone asks what comes
/// after the last track, because the engine must be told the wrap-around track ahead of time.
struct PlaybackOrder {
    private(set) var isShuffled = false
    private var round: [TrackID] = []
    /// Shuffled only: the round that follows this one, once drawn.
    private var nextRound: [TrackID]?
    private var generator: any RandomNumberGenerator

    init(generator: any RandomNumberGenerator) {
        self.generator = generator
    }

    /// Starts a new round over `queue`, with `current` first when shuffled.
    mutating func reset(queue: [TrackID], current: TrackID?, shuffled: Bool) {
        isShuffled = shuffled
        nextRound = nil
        guard shuffled else { round = queue; return }
        let rest = queue.filter { $0 != current }.shuffled(using: &generator)
        round = (current.map { [$0] } ?? []) + rest
    }

    /// Where this round begins.
    var first: TrackID? { round.first }

    func hasNext(after current: TrackID, wrap: Bool) -> Bool {
        guard let index = round.firstIndex(of: current) else { return false }
        return index + 1 < round.count || wrap
    }

    func hasPrevious(before current: TrackID, wrap: Bool) -> Bool {
        previous(before: current, wrap: wrap) != nil
    }

    /// The track after `current`, drawing the next round if it wraps; nothing is committed.
    mutating func upcoming(after current: TrackID, wrap: Bool) -> TrackID? {
        guard let index = round.firstIndex(of: current) else { return nil }
        if index + 1 < round.count { return round[index + 1] }
        return wrap ? followingRound().first : nil
    }

    /// Moves on from `current` as `upcoming` said, entering the next round at the wrap.
    mutating func moveForward(from current: TrackID, wrap: Bool) -> TrackID? {
        guard let index = round.firstIndex(of: current) else { return nil }
        if index + 1 < round.count { return round[index + 1] }
        guard wrap else { return nil }
        round = followingRound()
        nextRound = nil
        return round.first
    }

    /// Moves on from `current` to the first track that is not `leaving` (they are about to be removed),
    /// entering the next round if it wraps.
    mutating func moveForward(from current: TrackID, skipping leaving: Set<TrackID>, wrap: Bool) -> TrackID? {
        guard let index = round.firstIndex(of: current) else { return nil }
        if let next = round[(index + 1)...].first(where: { !leaving.contains($0) }) { return next }
        guard wrap else { return nil }
        round = followingRound()
        nextRound = nil
        return round.first { !leaving.contains($0) }
    }

    func previous(before current: TrackID, wrap: Bool) -> TrackID? {
        guard let index = round.firstIndex(of: current) else { return nil }
        if index > 0 { return round[index - 1] }
        return wrap ? round.last : nil
    }

    /// The first track of a fresh round: where playing starts again after the end of the queue.
    mutating func startOver() -> TrackID? {
        if isShuffled { round = followingRound() }
        nextRound = nil
        return round.first
    }

    /// The user picked `id`. When shuffled it moves right after `current`, so the tracks not yet
    /// played in this round still come after it.
    mutating func jump(to id: TrackID, from current: TrackID?) {
        guard isShuffled, let current, id != current, let from = round.firstIndex(of: id) else { return }
        round.remove(at: from)
        round.insert(id, at: round.firstIndex(of: current)! + 1)
    }

    /// New tracks play in this round: at their queue place, or when shuffled at random places after `current`.
    mutating func didInsert(_ ids: [TrackID], queue: [TrackID], current: TrackID?) {
        guard isShuffled else { round = queue; return }
        let played = current.flatMap { round.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for id in ids { round.insert(id, at: Int.random(in: played...round.count, using: &generator)) }
        guard var upcoming = nextRound else { return }
        for id in ids { upcoming.insert(id, at: Int.random(in: 0...upcoming.count, using: &generator)) }
        nextRound = upcoming
    }

    mutating func didRemove(_ id: TrackID, queue: [TrackID]) {
        didRemove([id], queue: queue)
    }

    mutating func didRemove(_ ids: Set<TrackID>, queue: [TrackID]) {
        guard isShuffled else { round = queue; return }
        round.removeAll { ids.contains($0) }
        nextRound?.removeAll { ids.contains($0) }
    }

    /// Moving changes the queue order only; a shuffled round keeps its own.
    mutating func didMove(queue: [TrackID]) {
        if !isShuffled { round = queue }
    }

    private mutating func followingRound() -> [TrackID] {
        guard isShuffled else { return round }
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
