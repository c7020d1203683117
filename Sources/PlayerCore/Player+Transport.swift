// How the core moves between tracks and drives the engine; shared by commands, queue edits and events.
extension Player {
    var wrapsQueue: Bool { loopMode == .playlist }

    /// Gives the track to the engine; what it prepared and any seek in flight are forgotten. `chosen`: the user
    /// skipped to it, and the engine may fade out what it plays first.
    func load(_ id: TrackID, at position: Duration = .zero, playing: Bool, chosen: Bool = false) {
        guard let track = queue.track(id) else { return }
        announceRestart = id == loaded
        loaded = id
        progress = .loading
        bufferingPercent = 100
        resetSeeks(at: position)
        enginePrepared = nil
        preparedSinceLoad = []
        let item = engineItem(for: track)
        loadedSharesAlbum = item.sharesAlbumWithNeighbour
        if chosen { engine.skip(to: item, at: position, playing: playing) } else { engine.load(item, at: position, playing: playing) }
    }

    /// Releases the engine's item; stopping again does nothing.
    func unload() {
        guard loaded != nil else { return }
        engine.stop()
        loaded = nil
        progress = .idle
        bufferingPercent = 100
        resetSeeks(at: .zero)
        enginePrepared = nil
        preparedSinceLoad = []
    }

    func resetSeeks(at position: Duration) {
        seekTarget = nil
        lastPosition = position
    }

    /// Loads `id` the way the user's intent says: playing, paused, or not at all when stopped.
    func loadForStatus(_ id: TrackID, chosen: Bool = false) {
        guard status != .stopped else { return }
        load(id, playing: status == .playing, chosen: chosen)
    }

    func seekEngine(to position: Duration) {
        guard let track = currentTrack else { return }
        pausedByInterruption = false  // every seek is the user's: the interruption's end must not resume
        seekTarget = position
        // Accurate seeks hang on slow network streams (docs/platform.md, "Network"); key units suffice there.
        // Upstream: no issue found; not retested after GStreamer 1.22.
        engine.seek(to: position, exact: track.uri.hasPrefix("file:"))
    }

    /// Back to the start of the current track; observers get Seeked(0) once the engine has done it.
    func restartCurrent() {
        guard let current = currentTrackID, loaded == current else { return }
        seekEngine(to: .zero)
    }

    /// Makes `id` current because the user chose it, keeping Playing, Paused or Stopped as it was.
    func switchTo(_ id: TrackID) {
        guard id != currentTrackID else { restartCurrent(); return }
        currentTrackID = id
        loadForStatus(id, chosen: true)
    }

    /// The loaded item ended (or failed): on to what follows, by the loop and shuffle rules.
    func advance(repeatingTrack: Bool) {
        guard let current = currentTrackID else { return }
        if repeatingTrack && loopMode == .track {
            load(current, playing: status == .playing)
        } else if let next = order.moveForward(from: current, wrap: wrapsQueue, in: queue) {
            currentTrackID = next
            load(next, playing: status == .playing)
        } else {
            stopAtEndOfQueue()
        }
    }

    /// Nothing follows: stop, with the first track of a fresh round current so that Play starts over.
    func stopAtEndOfQueue() {
        status = .stopped
        unload()
        currentTrackID = order.startOver(in: queue)
    }

    /// What should follow the loaded item: the same track when looping it, else the next in order.
    private var wantedNext: EngineItem? {
        guard let current = currentTrackID else { return nil }
        let next = loopMode == .track ? current : order.upcoming(after: current, wrap: wrapsQueue, in: queue)
        return next.flatMap(queue.track).map(engineItem(for:))
    }

    /// The engine switches on a streaming thread without asking, so it must always hold the right next item.
    func syncPreparedNext() {
        guard let loaded, loaded == currentTrackID else { return }
        let wanted = joinsTracksGaplessly ? wantedNext : nil
        if let told = enginePrepared, told == wanted { return }
        enginePrepared = .some(wanted)
        if let wanted { preparedSinceLoad.insert(wanted.id) }
        engine.prepareNext(wanted)
    }

    /// User commands clear what only makes sense until the user acts again.
    func userActed() {
        stoppedByFailure = false
        pausedByInterruption = false
        failedInARow = []
        openedOver = nil
    }
}
