/// Where a track id stands in the queue, without an entry per track.
///
/// Each AddTracks numbers its tracks in order, so a queue is mostly runs of consecutive ids: a whole library
/// queued in one call is one run. A run is stored once (its first id, where it starts, how long it is) and
/// a lookup is a binary search over the runs by first id. Replacing a dictionary from id to place by this
/// took 43 bytes per entry off a 100 000-track queue (`quaver-bench queue-scale`); a queue cut into single
/// tracks by moves and removals costs at most a 24-byte run and an 8-byte position per track.
struct QueueIndex: Sendable {
    private struct Run {
        var firstID: UInt64
        var start: Int
        var count: Int
    }

    /// In queue order.
    private var runs: [Run] = []
    /// Positions in `runs`, ordered by their first id.
    private var runsByID: [Int] = []

    func index(of id: TrackID) -> Int? {
        var low = 0
        var high = runsByID.count
        while low < high {
            let middle = (low + high) / 2
            if runs[runsByID[middle]].firstID <= id.rawValue { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let run = runs[runsByID[low - 1]]
        let offset = id.rawValue - run.firstID
        return offset < UInt64(run.count) ? run.start + Int(offset) : nil
    }

    /// Brings the index up to date with `slots` from `start` on; the slots before `start` must be as they
    /// were at the last update.
    mutating func update(_ slots: [QueueSlot], from start: Int) {
        var kept = 0
        var high = runs.count
        while kept < high {
            let middle = (kept + high) / 2
            if runs[middle].start < start { kept = middle + 1 } else { high = middle }
        }
        runs.removeSubrange(kept...)
        if let last = runs.last, last.start + last.count > start { runs[runs.count - 1].count = start - last.start }
        for index in start..<slots.count {
            let id = slots[index].id.rawValue
            if let last = runs.last, last.start + last.count == index, last.firstID + UInt64(last.count) == id {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(Run(firstID: id, start: index, count: 1))
            }
        }
        runsByID = runs.indices.sorted { runs[$0].firstID < runs[$1].firstID }
    }

    mutating func removeAll() {
        runs.removeAll()
        runsByID.removeAll()
    }
}
