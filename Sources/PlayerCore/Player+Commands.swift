// What users ask for (MPRIS Player methods and properties, the CLI). Rules: docs/mpris.md, "Seek and SetPosition", "Properties", "Transport".
extension Player {
    /// Plays the current track: resumes after Pause, restarts after Stop. No effect with an empty queue.
    public func play() {
        changing {
            userActed()
            guard let current = currentTrackID, status != .playing else { return }
            status = .playing
            if loaded == current { resumeEngine() } else { load(current, playing: true) }
        }
    }

    public func pause() {
        changing {
            userActed()
            guard status == .playing else { return }
            status = .paused
            engine.pause()
        }
    }

    /// MPRIS PlayPause: pauses when playing, otherwise plays (so a stopped player starts).
    public func togglePlayPause() {
        if status == .playing { pause() } else { play() }
    }

    /// Stops and releases the output; Play afterwards starts the current track from its beginning.
    public func stop() {
        changing {
            userActed()
            status = .stopped
            unload()
        }
    }

    /// The next track in play order (wrapping when looping the queue), keeping Playing, Paused or Stopped.
    /// No effect when `canGoNext` is false.
    public func next() {
        changing {
            userActed()
            guard let current = currentTrackID,
                  let next = order.moveForward(from: current, wrap: wrapsQueue, in: queue) else { return }
            if next == current { restartCurrent(); return }
            switchTo(next)
        }
    }

    /// Restarts the current track when more than `restartThreshold` has played, else goes to the
    /// previous track in play order, keeping Playing, Paused or Stopped. Otherwise no effect.
    public func previous() {
        changing {
            userActed()
            guard let current = currentTrackID else { return }
            if position > Player.restartThreshold { restartCurrent(); return }
            guard let previous = order.previous(before: current, wrap: wrapsQueue, in: queue) else { return }
            switchTo(previous)
        }
    }

    /// MPRIS Previous as desktops use it (CanGoPrevious is true whenever there is a current track): like
    /// `previous`, and with nothing before the current track, that track from its start.
    public func previousOrRestart() {
        changing {
            guard let current = currentTrackID else { return }
            if position <= Player.restartThreshold, order.previous(before: current, wrap: wrapsQueue, in: queue) == nil {
                userActed()
                restartCurrent()
            } else {
                previous()
            }
        }
    }

    /// Makes a queued track current (MPRIS TrackList.GoTo), keeping Playing, Paused or Stopped;
    /// the current track itself restarts. Unknown ids do nothing.
    public func goTo(_ id: TrackID) {
        changing {
            userActed()
            guard queue.contains(id) else { return }
            order.jump(to: id, from: currentTrackID)
            switchTo(id)
        }
    }

    /// MPRIS Seek: relative; before the start clamps to 0, past the end acts as Next (or stops at the
    /// end of the queue). Needs a loaded, seekable current track.
    public func seek(by offset: Duration) {
        changing {
            guard let track = currentTrack, loaded == track.id, track.isSeekable == true else { return }
            let target = max(.zero, position + offset)
            if let length = track.duration, target > length {
                userActed()
                if canGoNext { next() } else { stopAtEndOfQueue() }
                return
            }
            seekEngine(to: target)
        }
    }

    /// MPRIS SetPosition: absolute, for the named track. A stale id, a negative position or one past
    /// the track's length does nothing.
    public func setPosition(_ position: Duration, of id: TrackID) {
        changing {
            guard let track = currentTrack, track.id == id, loaded == id, track.isSeekable == true,
                  position >= .zero, position <= track.duration ?? position else { return }
            seekEngine(to: position)
        }
    }

    /// Sets the rate; NaN or a value outside `rateRange` throws (a D-Bus InvalidArgs for the caller).
    /// MPRIS says a client setting 0 means Pause: that is the adapter's call to make, before this.
    public func setRate(_ rate: Double) throws {
        guard Player.rateRange.contains(rate) else { throw PlayerError.invalidRate(rate) }
        changing {
            guard rate != self.rate else { return }
            self.rate = rate
            engine.setRate(rate)
        }
    }

    /// Clamping policy for callers that must not fail (key bindings, a restored session):
    /// values outside `rateRange` become its nearest bound; NaN is ignored.
    public func setRate(clamping rate: Double) {
        guard !rate.isNaN else { return }
        try? setRate(min(max(rate, Player.rateRange.lowerBound), Player.rateRange.upperBound))
    }

    /// Linear volume: values outside 0…1 are clamped (docs/mpris.md, "Properties": a negative set becomes 0); NaN throws.
    public func setVolume(_ volume: Double) throws {
        guard !volume.isNaN else { throw PlayerError.invalidVolume(volume) }
        let clamped = min(max(volume, 0), 1)
        changing {
            guard clamped != self.volume else { return }
            self.volume = clamped
            engine.setVolume(clamped * fadeLevel)
        }
    }

    public func setLoopMode(_ mode: LoopMode) {
        changing { loopMode = mode }
    }

    /// Turning shuffle on starts a round with the current track first, so every other track plays once.
    public func setShuffle(_ on: Bool) {
        changing {
            guard on != isShuffled else { return }
            order.reset(queue: queue, current: currentTrackID, shuffled: on)
        }
    }

    /// Starts the engine unless it waits for its buffer (it resumes at 100 %: docs/platform.md, "Network").
    /// Upstream: by design (`gst_message_new_buffering`: below 100 % the application pauses): it stays.
    func resumeEngine() {
        if bufferingPercent >= 100 { engine.play() }
    }
}
