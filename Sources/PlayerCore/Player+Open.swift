// MPRIS OpenUri as one command: "play this now" must not cost the user the song they were listening to.
extension Player {
    /// Where the user was when they opened something: the track, how far in, and its status.
    struct OpenedOver {
        let opened: TrackID
        let track: TrackID
        let position: Duration
        let status: PlaybackStatus
    }

    /// Queues `uri` right after the current track and plays it, as one change (one round of signals).
    /// If it cannot be played at all (it fails before its first sample), it is taken out of the queue
    /// again and the track that was current comes back where it was, in the status it had.
    @discardableResult
    public func open(_ uri: String) -> TrackID? {
        var opened: TrackID?
        changing {
            let (previous, position, status) = (currentTrackID, position, status)
            guard let id = add([uri], at: previous.map(QueuePosition.after) ?? .end).first else { return }
            opened = id
            goTo(id)
            play()
            openedOver = previous.map { OpenedOver(opened: id, track: $0, position: position, status: status) }
        }
        return opened
    }

    /// The opened track failed before it played: take it out and go back (see `open`). Returns false
    /// when the failure is not of a freshly opened track.
    func takeBackFailedOpen(_ id: TrackID) -> Bool {
        guard let over = openedOver, over.opened == id, queue.contains(over.track) else { return false }
        openedOver = nil
        _ = queue.remove(id)
        order.didRemove([id])
        readAtOnce.remove(id)
        note(.trackRemoved(id))
        order.jump(to: over.track, from: id)
        currentTrackID = over.track
        status = over.status
        if over.status != .stopped { load(over.track, at: over.position, playing: over.status == .playing) }
        return true
    }
}
