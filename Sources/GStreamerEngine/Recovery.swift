import EventLoop
import GStreamer
import Logging
import PlayerCore

/// Sound server lost while playing: the pipeline is dead (repeated errors). NULL → PAUSED → seek →
/// PLAYING brings it back (docs/platform.md, "GStreamer behaviour"), so the engine retries every second:
/// `.outputLost(began: true)` now, `.outputLost(began: false)` once the output plays again. The log
/// says so once per outage: a Snapcast server that went away has no other watcher to tell the user.
/// Upstream: no issue found; pulsesink has no reconnection as of GStreamer 1.29.2 (main, 2026-08): not fixed upstream.
extension GStreamerEngine {
    static let recoveryInterval = 1.0
    /// The engine's lines in quaverd's log (the daemon's handler names the module).
    static let log = Logger(label: "quaverd")
    static let attemptTimeout = 10.0

    func outputLost(_ reason: String) {
        guard recovery == nil || preroll != nil else { return }  // already waiting for the next attempt
        recoveryPosition = preroll?.position ?? queuedSeek?.target ?? position ?? .zero
        reportSeekAfterRecovery = preroll?.reportSeek ?? (queuedSeek ?? seekInFlight)?.report ?? false
        let firstLoss = recovery == nil
        stopPipeline()
        preroll = nil
        seekInFlight = nil
        queuedSeek = nil
        lastPosition = recoveryPosition
        if firstLoss {
            Self.log.warning(
                "the sound output stopped (\(reason)): trying again every second; playback resumes where it was")
            emit(.outputLost(began: true))
        } else {
            Self.log.debug("the sound output is still gone (\(reason))")
        }
        recovery = EventLoop.main.schedule(after: Self.recoveryInterval) { [weak self] in
            self?.reconnect()
        }
    }

    private func reconnect() {
        guard let current else { recovery = nil; return }
        handover.reset(loading: current)
        preroll = Preroll(position: recoveryPosition, playing: wantsPlaying, reportSeek: reportSeekAfterRecovery)
        lastPosition = recoveryPosition
        playbin.set("uri", playbinURI ?? current.uri)
        Self.log.debug("trying the sound output again")
        changeState(to: .paused)
        // An attempt that neither prerolls nor fails is given up and made again: one in about ten tries of
        // the Snapcast test left the pipeline waiting for good after snapserver came back.
        recovery = EventLoop.main.schedule(after: Self.attemptTimeout) { [weak self] in
            self?.outputLost("no answer from the sound output in \(Int(Self.attemptTimeout)) s")
        }
    }

    /// Called when a preroll completes: if it was a reconnection, the interruption is over.
    func finishRecovery() {
        guard recovery != nil else { return }
        recovery = nil
        Self.log.info("the sound output is back: playing on")
        emit(.outputLost(began: false))
    }
}
