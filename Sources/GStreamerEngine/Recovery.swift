import EventLoop
import GStreamer
import Logging
import PlayerCore

/// Sound server lost while playing: the pipeline is dead (repeated errors). NULL → PAUSED → seek →
/// PLAYING brings it back (docs/platform.md, "GStreamer behaviour"), so the engine retries every second
/// (`Phase.recovering`, applied in GStreamerEngine.swift): `.outputLost(began: true)` now,
/// `.outputLost(began: false)` once the output plays again. The log says so once per outage: a Snapcast
/// server that went away has no other watcher to tell the user.
/// Upstream: no issue found; pulsesink has no reconnection as of GStreamer 1.29.2 (main, 2026-08): not fixed upstream.
extension GStreamerEngine {
    static let recoveryInterval = 1.0
    /// The engine's lines in quaverd's log (the daemon's handler names the module).
    static let log = Logger(label: "quaverd")
    static let attemptTimeout = 10.0

    /// The output failed (`first`: it had worked until now).
    func announceLoss(_ reason: String, first: Bool) {
        guard first else { return Self.log.debug("the sound output is still gone (\(reason))") }
        Self.log.warning("the sound output stopped (\(reason)): trying again every second; playback resumes where it was")
        emit(.outputLost(began: true))
    }

    /// An attempt prerolled: the interruption is over.
    func announceRecovery() {
        Self.log.info("the sound output is back: playing on")
        emit(.outputLost(began: false))
    }
}
