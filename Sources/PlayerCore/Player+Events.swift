// What the engine reports. Events may name items the core has since replaced (they were on their
// way when a command changed things): those are recognised and ignored.
extension Player: AudioEngineDelegate {
    public func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) {
        changing { handle(event) }
    }

    private func handle(_ event: AudioEngineEvent) {
        switch event {
        case .trackStarted(let id): trackStarted(id)
        case .tags(let id, let tags): updateTrack(id) { $0.tags = $0.tags.merging(tags) }
        case .duration(let id, let length): updateTrack(id) { $0.duration = length }
        case .seekable(let id, let seekable): updateTrack(id) { $0.isSeekable = seekable }
        case .buffering(let percent): bufferingChanged(to: percent)
        case .seekCompleted(let position): seekCompleted(at: position)
        case .endOfStream(let id): if id == loaded { finishedTrack(); advance(repeatingTrack: true) }
        case .failed(let id, let error): failed(id, error)
        case .interruption(let began): soundServerAsked(toPause: began)
        case .outputLost(let began): outputLost(began)
        case .buffered(let id, let spans): recordBuffered(spans, of: id)
        }
    }

    /// The engine's stream start: the loaded item is heard, or the engine switched to a prepared one.
    private func trackStarted(_ id: TrackID) {
        if id == loaded || preparedSinceLoad.contains(id) { recordOutcome(.started, of: id) }
        if id == loaded {
            startedLoadedItem()
        } else if preparedSinceLoad.contains(id) {
            switchedGaplessly(to: id)
        }
    }

    private func startedLoadedItem() {
        openedOver = nil
        if progress == .loading {
            progress = .ready
            if announceRestart { note(.seeked(.zero)) }
        } else {
            // A gapless switch to the same item: looping one track (docs/mpris.md, "Seeked": that is Seeked(0)).
            finishedTrack()
            enginePrepared = nil
            resetSeeks(at: .zero)
            note(.seeked(.zero))
        }
        announceRestart = false
    }

    private func switchedGaplessly(to id: TrackID) {
        finishedTrack()
        loaded = id
        loadedSharesAlbum = enginePrepared??.sharesAlbumWithNeighbour ?? false
        enginePrepared = nil  // the engine used up its prepared item
        resetSeeks(at: .zero)
        guard let current = currentTrackID, queue.contains(id) else {
            // It switched to a track removed meanwhile: it stands for the end of the current one.
            advance(repeatingTrack: false)
            return
        }
        if order.upcoming(after: current, wrap: wrapsQueue, in: queue) == id {
            _ = order.moveForward(from: current, wrap: wrapsQueue, in: queue)
        } else {
            order.jump(to: id, from: current)
        }
        currentTrackID = id
    }

    /// A track played to its end: the failures before it no longer mean that everything fails.
    private func finishedTrack() {
        failedInARow = []
    }

    private func seekCompleted(at position: Duration) {
        guard seekTarget != nil else { return }  // not ours: the engine's own repositioning
        seekTarget = nil
        lastPosition = position
        note(.seeked(position))
    }

    /// Reports the failure and moves on; stops (state `.failed`) once every queued track failed in a row.
    private func failed(_ id: TrackID, _ error: EngineError) {
        guard id == loaded || preparedSinceLoad.contains(id) else { return }
        lastError = queue.track(id).map { TrackFailure(track: $0.id, uri: $0.uri, title: $0.title, error: error) }
            ?? TrackFailure(track: id, uri: "", title: "\(id)", error: error)
        note(.trackFailed(id, error))
        recordOutcome(.failed(error), of: id)
        if takeBackFailedOpen(id) { return }
        if id != loaded, let current = currentTrackID, queue.contains(id) {
            // The prepared item failed as the engine switched to it: skip from there.
            if order.upcoming(after: current, wrap: wrapsQueue, in: queue) == id {
                _ = order.moveForward(from: current, wrap: wrapsQueue, in: queue)
            }
            currentTrackID = id
        }
        loaded = id
        failedInARow.insert(id)
        if queue.isCovered(by: failedInARow) {
            stopAtEndOfQueue()
            stoppedByFailure = true
        } else {
            advance(repeatingTrack: false)
        }
    }

    /// Playbin keeps playing at 0 %: pausing while the buffer refills is ours to do (docs/platform.md, "Network").
    /// Upstream: by design (`gst_message_new_buffering`: below 100 % the application pauses): it stays.
    private func bufferingChanged(to percent: Int) {
        guard loaded != nil else { return }
        let percent = min(max(percent, 0), 100)
        let wasStarved = bufferingPercent < 100
        countStall(from: bufferingPercent, to: percent)
        bufferingPercent = percent
        guard status == .playing, wasStarved != (percent < 100) else { return }
        if percent < 100 { engine.pause() } else { engine.play() }
    }
}
