// Queue edits (MPRIS TrackList AddTrack/RemoveTrack/GoTo, the CLI's add/move/clear/replace).
extension Player {
    /// Queues URIs; returns their new ids (none when `position` names an unknown track).
    /// When the queue was empty the first new track becomes current, stopped.
    @discardableResult
    public func add(_ uris: [String], at position: QueuePosition = .end) -> [TrackID] {
        add(uris.map { QueueEntry(uri: $0) }, at: position)
    }

    /// Queues URIs right after a track (MPRIS TrackList.AddTrack with an AfterTrack).
    @discardableResult
    public func insert(_ uris: [String], after id: TrackID) -> [TrackID] {
        add(uris, at: .after(id))
    }

    /// Queues entries with what is already known about them.
    @discardableResult
    public func add(_ entries: [QueueEntry], at position: QueuePosition) -> [TrackID] {
        add(PreparedEntries(entries), at: position)
    }

    /// Queues entries converted ahead of time.
    @discardableResult
    public func add(_ entries: PreparedEntries, at position: QueuePosition) -> [TrackID] {
        var added: [TrackID] = []
        changing {
            guard !entries.isEmpty, let ids = queue.insert(entries, at: position) else { return }
            added = ids
            note(.tracksAdded(ids, after: queue.id(before: queue.index(of: ids[0])!)))
            order.didInsert(ids, current: currentTrackID)
            if currentTrackID == nil { currentTrackID = order.first(in: queue) }
        }
        return added
    }

    /// Removes a track. When it is current, the track that followed it takes its place in the same
    /// Playing/Paused/Stopped status; with nothing after it, playing stops at the end of the queue.
    public func remove(_ id: TrackID) {
        changing {
            guard queue.contains(id) else { return }
            let successor = id == currentTrackID ? order.moveForward(from: id, wrap: wrapsQueue, in: queue) : nil
            _ = queue.remove(id)
            order.didRemove([id])
            failedInARow.remove(id)
            readAtOnce.remove(id)
            note(.trackRemoved(id))
            guard id == currentTrackID else { return }
            if let successor, successor != id {
                currentTrackID = successor
                loadForStatus(successor)
            } else {
                stopAtEndOfQueue()
            }
        }
    }

    /// Gives back the room kept for the queue to grow, after an edit made of many additions (AddTracks
    /// of 100 000 in slices): doubling as it grew, it can hold half as much again unused.
    public func shrinkQueueStorage() {
        queue.shrinkToFit()
    }

    /// Removes tracks in one pass over the queue (RemoveTracks of thousands); ids not queued are skipped.
    /// Observers hear one `trackRemoved` per track, in the order given. When the current track goes, the
    /// first track after it that stays takes its place, as `remove(_:)` does for one.
    public func remove(_ ids: [TrackID]) {
        changing {
            var gone = Set<TrackID>()
            let named = ids.filter { queue.contains($0) && gone.insert($0).inserted }
            guard !gone.isEmpty else { return }
            let successor = currentTrackID.flatMap {
                gone.contains($0) ? order.moveForward(from: $0, skipping: gone, wrap: wrapsQueue, in: queue) : nil
            }
            queue.remove(gone)
            order.didRemove(gone)
            failedInARow.subtract(gone)
            for id in named { note(.trackRemoved(id)) }
            guard let current = currentTrackID, gone.contains(current) else { return }
            if let successor {
                currentTrackID = successor
                loadForStatus(successor)
            } else {
                stopAtEndOfQueue()
            }
        }
    }

    /// Moves a track within the queue; the current track and playback are unaffected.
    public func move(_ id: TrackID, to position: QueuePosition) {
        changing {
            guard queue.move(id, to: position), let index = queue.index(of: id) else { return }
            note(.trackMoved(id, after: queue.id(before: index)))
        }
    }

    /// Empties the queue and stops.
    public func clear() {
        changing {
            guard !queue.isEmpty else { return }
            replaceQueue(with: [], current: nil)
        }
    }

    /// Replaces the whole queue; `startingAt` (an index into `entries`, else the first) becomes current,
    /// loaded as the status says: playing goes on with the new queue, paused stays paused.
    @discardableResult
    public func replace(with entries: [QueueEntry], startingAt index: Int? = nil) -> [TrackID] {
        replace(with: PreparedEntries(entries), startingAt: index)
    }

    /// The same for entries converted ahead of time (a saved playlist of 20 000, read on another thread).
    @discardableResult
    public func replace(with entries: PreparedEntries, startingAt index: Int? = nil) -> [TrackID] {
        var added: [TrackID] = []
        changing {
            added = replaceQueue(with: entries, current: index)
            if let current = currentTrackID { loadForStatus(current) } else { status = .stopped }
        }
        return added
    }

    @discardableResult
    public func replace(with uris: [String], startingAt index: Int? = nil) -> [TrackID] {
        replace(with: uris.map { QueueEntry(uri: $0) }, startingAt: index)
    }

    /// Swaps the queue contents and starts a new round; the engine is released. Callers reload.
    @discardableResult
    func replaceQueue(with entries: [QueueEntry], current index: Int?, shuffled: Bool? = nil) -> [TrackID] {
        replaceQueue(with: PreparedEntries(entries), current: index, shuffled: shuffled)
    }

    @discardableResult
    func replaceQueue(with entries: PreparedEntries, current index: Int?, shuffled: Bool? = nil) -> [TrackID] {
        unload()
        queue.removeAll()
        let ids = queue.insert(entries, at: .end) ?? []
        let chosen = index.flatMap { ids.indices.contains($0) ? ids[$0] : nil }
        order.reset(queue: queue, current: chosen, shuffled: shuffled ?? isShuffled)
        currentTrackID = chosen ?? order.first(in: queue)
        failedInARow = []
        readAtOnce = []
        if ids.isEmpty { status = .stopped }
        note(.queueReplaced)
        return ids
    }

    /// Tags a background reader found in the file before it plays (`addTags` says what they replace).
    public func updateTags(_ id: TrackID, _ tags: TrackTags, duration: Duration? = nil) {
        changing {
            addTags(tags, duration: duration, to: id)
        }
    }

    /// Tags read from the file itself: fields it knows replace the old ones; a length only fills in one not
    /// yet known (the engine's report for a playing track comes from the stream being heard).
    func addTags(_ tags: TrackTags, duration: Duration?, to id: TrackID) {
        updateTrack(id) { track in
            track.tags = track.tags.merging(tags)
            if track.duration == nil, let duration { track.duration = duration }
        }
    }

    /// Applies `edit`; observers hear of it only when the track really changed.
    func updateTrack(_ id: TrackID, _ edit: (inout Track) -> Void) {
        if queue.update(id, edit) { note(.metadata(id)) }
    }
}
