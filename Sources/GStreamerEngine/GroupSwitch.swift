import EventLoop

/// Keeps playbin's switch to the next item and its way down to NULL apart.
///
/// playbin makes the switch on the streaming thread that drains the old item, inside uridecodebin's
/// `drained`: it emits about-to-finish (we give it the next URI), then changes the states of the old and
/// the new decoder. That code takes no part in playbin's own shutdown (GStreamer 1.22, playbin2's
/// `drained_cb`), so a NULL from the loop meanwhile deadlocks (the NULL waits for the draining thread's
/// pad, which waits for a state lock the NULL holds) or crashes ("pad_removed_cb: assertion failed:
/// (combiner != NULL)"): both were measured. A failing next item makes it likely: its error reaches the
/// loop, which goes to NULL, as the switch into it (or the drain of the failed item itself) goes on.
///
/// So the two exclude each other: a switch is `beginSwitch`-ed at about-to-finish and `switchEnded` by a
/// handler that runs after playbin's own on the same `drained` emission; `exclusively` waits for a switch
/// under way to end, and while it runs about-to-finish hands playbin nothing (playbin then finds no next
/// item and returns at once, touching no state). The switch never waits for the loop, so the wait is short
/// (a decoder's start); it is bounded all the same. The flags are one pipeline's (`StreamingSide.newPipeline`):
/// a call from a playbin given up changes nothing.
/// Upstream: no issue found. Not fixed as of GStreamer 1.29.2 (main, 2026-08): playbin2's `drained_cb` →
/// `setup_next_source` and its `g_assert (combiner != NULL)` in `pad_removed_cb` are unchanged since 1.22.
struct SwitchState {
    var underWay = false
    var stopping = false
    /// Seeks of the loop's queued for or running on the pipeline's thread.
    var seeksPending = 0
}

extension StreamingSide {
    /// Streaming thread, at about-to-finish: false while the pipeline goes down, when nothing may be handed over.
    func beginSwitch(_ generation: Int) -> Bool {
        locked { shared in
            guard shared.generation == generation, !shared.groupSwitch.stopping else { return false }
            shared.groupSwitch.underWay = true
            return true
        }
    }

    /// Streaming thread, inside a switch: waits for the next file's check (it ended, or the prepared item
    /// needs none any more), `limit` seconds at most; false (at once) when the loop wants the pipeline down,
    /// which it must not wait for. Nor does it wait while a seek of the loop's is pending: the streaming thread
    /// holds the stream lock of the draining item's pads, which a flushing seek waits for, so the seek (and the
    /// D-Bus caller behind it) would wait as long (`scripts/soak --mode failing`: every answer slower than
    /// 0.3 s, 4 SetPosition, 2 Rate, a GoTo and a Previous, waited here, up to 0.5 s; none since). The caller
    /// then finds the check unfinished and hands nothing over. Other calls (PLAYING, PAUSED, queries) do not
    /// need that lock, and cutting the wait for them broke gapless joins of short tracks, whose
    /// about-to-finish comes while the engine sets them playing.
    func waitForNextFilesCheck(_ generation: Int, atMost limit: Double) -> Bool {
        let deadline = MonotonicDeadline.after(seconds: limit)
        return locked(waitingUntil: deadline, for: { shared in
            let ready = shared.checks.underWay == 0 || !shared.handover.preparedAwaitsCheck
            return shared.groupSwitch.stopping || shared.groupSwitch.seeksPending > 0 || ready
        }, { shared in shared.generation == generation && !shared.groupSwitch.stopping })
    }

    /// Loop thread, before a seek is queued for the pipeline's thread: a switch waiting stops waiting, and
    /// none waits until `seekReturned`.
    func seekQueued() -> Int {
        changing { shared in
            shared.groupSwitch.seeksPending += 1
            return shared.generation
        }
    }

    /// Pipeline thread, when the seek has returned.
    func seekReturned(_ generation: Int) {
        locked { shared in
            if shared.generation == generation { shared.groupSwitch.seeksPending -= 1 }
        }
    }

    /// Streaming thread, after playbin's `drained` handler has returned.
    func switchEnded(_ generation: Int) {
        changing { shared in
            if shared.generation == generation { shared.groupSwitch.underWay = false }
        }
    }

    /// Loop thread: runs `change` (playbin's change to NULL) once no switch is under way, with none begun
    /// meanwhile. Returns false when a switch had not ended after `timeout` seconds (it ran all the same).
    @discardableResult
    func exclusively(_ generation: Int, timeout: Double, _ change: () -> Void) -> Bool {
        let deadline = MonotonicDeadline.after(seconds: timeout)
        // A switch waiting for the next file's check gives up at once.
        changing { shared in if shared.generation == generation { shared.groupSwitch.stopping = true } }
        let ended = locked(waitingUntil: deadline, for: { shared in
            shared.generation != generation || !shared.groupSwitch.underWay
        }, { shared in shared.generation != generation || !shared.groupSwitch.underWay })
        change()
        locked { shared in if shared.generation == generation { shared.groupSwitch.stopping = false } }
        return ended
    }
}
