import EventLoop
import GStreamer
import Logging
import PlayerCore

/// Turns playbin's bus messages into engine events (loop thread).
extension GStreamerEngine {
    func handle(_ message: Message) {
        switch message.kind {
        case .streamStart: streamStarted()
        case .asyncDone: asyncDone()
        case .durationChanged: reportStreamInfo()
        case .tags(let list) where message.isFromSink: tagsArrived(list)
        case .buffering(let percent): emit(.buffering(percent: percent))
        case .endOfStream: if let current { emit(.endOfStream(current.id)) }
        case .error(let error): failed(error, from: message)
        case .missingPlugin(let description): pluginMissing = description
        case .requestState(.paused): emit(.interruption(began: true))
        case .requestState(.playing): emit(.interruption(began: false))
        default: break
        }
    }

    /// The oldest item handed to playbin is now heard (or, while loading, prerolled).
    private func streamStarted() {
        guard let handed = handover.streamStarted() else { return }
        let item = handed.item
        let restarted = (recovery != nil || restarting) && item == current
        current = item
        if restarted { return }
        if handed.isSuccessor { switchedGaplessly(to: handed) }
        forgetStreamInfo()
        emit(.trackStarted(item.id))
        // A gapless successor has no ASYNC_DONE of its own (its rate comes with its segment: rateProbe).
        if handed.isSuccessor { reportStreamInfo() }
    }

    /// playbin went on to the prepared item by itself (about-to-finish): the previous item's remote
    /// file is done with, and the new one's, if it plays from the cache, is already in the slot.
    private func switchedGaplessly(to handed: Handover.Handed) {
        remote?.file.close()
        remote = handed.remote.map { ($0, handed.item) }
        if remote == nil { remoteSlot.withLock { $0 = nil } }
        playbinURI = handed.remote == nil ? handed.item.uri : "appsrc://"
        liveStream = false
    }

    private func asyncDone() {
        outputWorked = true
        if let start = preroll {
            preroll = nil
            restarting = false
            replacementsInARow = 0
            let prerolled = pipeline
            if start.position > .zero || start.applyRate || start.reportSeek {
                requestSeek(SeekRequest(target: start.position, exact: playsLocalFile, report: start.reportSeek))
            }
            guard pipeline === prerolled else { return }  // the seek found it stuck: the item starts again
            if start.playing { changeState(to: .playing) }
            finishRecovery()
        } else if seekInFlight != nil {
            seekLanded()
        }
        reportStreamInfo()
    }

    /// Exact (ACCURATE) start positions only for local files, as the core asks for seeks. On a remote
    /// file baseparse serves an ACCURATE seek by reading every byte from the last frame it parsed: a
    /// load at 45 s of an MP3 waited for 720 KB of linear download (21 s at 256 kbit/s, measured);
    /// KEY_UNIT jumps to its byte estimate, where our source opens a Range request (3.2 s).
    private var playsLocalFile: Bool { playbinURI?.hasPrefix("file:") ?? true }

    /// Duration and seekability, each reported when it changes (`gst_element_query_duration`, SEEKING).
    func reportStreamInfo() {
        guard let current else { return }
        if liveStream { return reportLiveStreamInfo() }
        if let duration = query({ $0.queryDuration() }), duration != sentDuration {
            sentDuration = duration
            remote?.file.setDuration(duration)
            emit(.duration(current.id, duration))
            reportBufferedRanges()
        }
        // A stream without a length is live (a live HLS playlist answers SEEKING with true for its window):
        // MPRIS clients must not offer a seek bar for it.
        if let answer = query({ $0.querySeekable() }), case let seekable = answer && sentDuration != nil,
           seekable != sentSeekable {
            sentSeekable = seekable
            emit(.seekable(current.id, seekable))
        }
    }

    /// TAG messages repeat with the full list: report only what changed.
    private func tagsArrived(_ list: TagList) {
        guard let current else { return }
        var merged = sentTags
        merged.merge(list)
        if liveStream { merged.splitStreamTitle(list) }
        guard merged != sentTags else { return }
        sentTags = merged
        emit(.tags(current.id, merged))
    }

    /// Reports the first error of a stream once (GStreamer repeats them) and leaves the pipeline in
    /// READY, ready for the next load. A lost sound server is recovered instead (see Recovery.swift).
    private func failed(_ error: GStreamerError, from message: Message) {
        let fromOutput = message.source.map(output.contains) ?? false
        Self.log.debug("error from \(message.sourceName): \(error.message)")
        if fromOutput && (outputWorked || recovery != nil) {
            outputLost(error.message)
            return
        }
        guard let item = handover.pending ?? current else { return }
        let kind = EngineError.Kind(error, fromOutput: fromOutput, pluginMissing: pluginMissing != nil, uri: item.uri)
        let text = pluginMissing.map { "no GStreamer plugin installed for \($0)" } ?? error.message
        teardown()
        handover.reset(loading: nil)
        emit(.failed(item.id, EngineError(kind, "\(item.uri): \(text)")))
    }
}
