import EventLoop
import GStreamer
import Logging
import PlayerCore

/// What the core was last told about the stream playing: TAG messages repeat with the full list, and
/// duration and seekability are asked again at every ASYNC_DONE, so only changes are reported.
struct StreamReport {
    var tags = TrackTags()
    /// The cover sample `tags.coverImage` was copied from: a TAG message carrying it again is not copied again.
    var coverSample: SampleHandle?
    var duration: Duration?
    var seekable: Bool?
}

/// Bus messages that change nothing on the loop side, turned into engine events (loop thread); the others
/// are applied in GStreamerEngine.swift.
extension GStreamerEngine {
    func report(_ message: Message) {
        switch message.kind {
        case .durationChanged: reportStreamInfo()
        case .tags(let list) where message.isFromSink: tagsArrived(list)
        case .buffering(let percent): emit(.buffering(percent: percent))
        case .endOfStream: if let current { emit(.endOfStream(current.id)) }
        case .requestState(.paused): emit(.interruption(began: true))
        case .requestState(.playing): emit(.interruption(began: false))
        default: break
        }
    }

    /// Exact (ACCURATE) start positions only for local files, as the core asks for seeks. On a remote
    /// file baseparse serves an ACCURATE seek by reading every byte from the last frame it parsed: a
    /// load at 45 s of an MP3 waited for 720 KB of linear download (21 s at 256 kbit/s, measured);
    /// KEY_UNIT jumps to its byte estimate, where our source opens a Range request (3.2 s).
    var playsLocalFile: Bool { state.loaded.playbinURI?.hasPrefix("file:") ?? true }

    /// Duration and seekability, each reported when it changes (`gst_element_query_duration`, SEEKING).
    func reportStreamInfo() {
        guard let current else { return }
        if state.loaded.liveStream { return reportLiveStreamInfo() }
        if let duration = query({ $0.queryDuration() }), duration != reported.duration {
            reported.duration = duration
            state.loaded.remote?.file.setDuration(duration)
            emit(.duration(current.id, duration))
            reportBufferedRanges()
        }
        // A stream without a length is live (a live HLS playlist answers SEEKING with true for its window):
        // MPRIS clients must not offer a seek bar for it.
        if let answer = query({ $0.querySeekable() }), case let seekable = answer && reported.duration != nil,
           seekable != reported.seekable {
            reported.seekable = seekable
            emit(.seekable(current.id, seekable))
        }
    }

    /// Live streams have no length and cannot be seeked; say so once, as the contract asks.
    private func reportLiveStreamInfo() {
        guard let current, reported.seekable == nil else { return }
        reported.seekable = false
        emit(.duration(current.id, nil))
        emit(.seekable(current.id, false))
    }

    /// TAG messages repeat with the full list: report only what changed. The cover they repeat (the same sample)
    /// is neither copied nor hashed again (22 messages in 10 s of an MP3, each with the whole picture).
    private func tagsArrived(_ list: TagList) {
        guard let current else { return }
        var merged = reported.tags
        let cover = list.sampleHandle("image")
        let coverAlreadyRead = cover != nil && cover == reported.coverSample
        merged.merge(list, includingImage: !coverAlreadyRead)
        if let cover { reported.coverSample = cover }
        if state.loaded.liveStream { merged.splitStreamTitle(list) }
        guard merged != reported.tags else { return }
        reported.tags = merged
        emit(.tags(current.id, merged))
    }

    /// The failure a stream's first error means for `item`; a missing-plugin message that came first
    /// (`pluginMissing`) is the precise reason.
    static func failure(_ error: GStreamerError, of item: EngineItem, fromOutput: Bool,
                        pluginMissing: String?) -> EngineError {
        let kind = EngineError.Kind(error, fromOutput: fromOutput, pluginMissing: pluginMissing != nil, uri: item.uri)
        let text = pluginMissing.map { "no GStreamer plugin installed for \($0)" } ?? error.message
        return EngineError(kind, "\(item.uri): \(text)")
    }
}

extension GStreamerEngine {
    /// Embedded covers at least this large are given back to the system once their track is left.
    static let largeCoverBytes = 1 << 20

    /// The loaded item is being left (a load, a stop, a failure, a gapless switch): a large cover it carried is
    /// freed in this loop turn by all that held it (the stream's report and the check's read here, the core's
    /// queue, MPRIS's Metadata), and glibc keeps freed heap pages for reuse: they are given back half a second
    /// from now (`ProcessMemory`), after this turn. Left to the next trim, which only a few events ask for, a
    /// 15 MB cover stayed resident after Next (CoverMemoryTests).
    func giveBackLargeCoverOfLoadedItem() {
        let covers = [reported.tags.coverImage, state.loaded.checkedRead?.read.tags.coverImage]
        if covers.contains(where: { ($0?.data.count ?? 0) >= Self.largeCoverBytes }) { ProcessMemory.giveBackSoon() }
    }
}
