import CGStreamer

/// Reads a local file's tags, cover and length by prerolling it in a playbin of its own (audio only, into a
/// fakesink) on the calling thread, for a caller that waits a few milliseconds for it: the track becoming
/// current.
///
/// Not GstDiscoverer: when a file's length is not known once it has prerolled (an MP3 without a Xing header,
/// whose parser must count frames first) the discoverer plays it on and asks again, which took 50 ms here
/// for every such file (FLAC and Vorbis: 1–3 ms). Tags travel ahead of the first buffer, so they are all in
/// at preroll; a length not known then is left out, and the pipeline that plays the file reports it.
/// Upstream: by design (gstdiscoverer.c: "No duration yet, try a bit harder"), still in GStreamer 1.29.2.
public enum PrerollProbe {
    /// What `uri` holds once prerolled, or nil when it cannot be (an error, or more than `timeout`).
    /// Blocks the calling thread; setting the pipeline down may block longer on a file that never gives
    /// data (a FIFO without a writer), as it does in GstDiscoverer.
    public static func read(_ uri: String, timeout: Duration) -> DiscoveredMedia? {
        GStreamer.initialize()
        guard let playbin = try? Element.make("playbin"), let audioSink = try? Element.make("fakesink"),
              let videoSink = try? Element.make("fakesink") else { return nil }
        playbin.set("uri", uri)
        playbin.set("flags", "audio")
        playbin.set("audio-sink", audioSink)
        // A file with pictures only (a cover saved as .flac) must not make playbin look for a video sink: the
        // DirectFB one it found crashed on its own thread (measured).
        // Upstream: no issue found; not retested after 1.22 (see Pipeline.swift).
        playbin.set("video-sink", videoSink)
        // A file without audio prerolls all the same: it fails here as it would in the playing pipeline, so
        // `NextItemCheck` never lets it into a gapless switch.
        let decoders = playbin.connect("element-added") { element in
            if element.factoryName == "uridecodebin" { element.failsWithoutAudioStream() }
        }
        let bus = playbin.bus
        defer {
            playbin.setState(.null)
            decoders.cancel()
        }
        guard playbin.setState(.paused) != .failure else { return nil }
        var tags: TagList?
        // GLib's monotonic clock, not ContinuousClock, whose reading would keep a block of `_Concurrency`'s code
        // resident in the daemon for this one call (docs/reliability.md, "Memory while playing").
        let (seconds, attoseconds) = timeout.components
        let deadline = Int64(g_get_monotonic_time()) + seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        while case let left = deadline - Int64(g_get_monotonic_time()), left > 0,
              let message = bus.pop(waitingAtMost: .microseconds(left)) {
            switch message.kind {
            case .tags(let list):
                tags = tags.map { $0.merging(list) } ?? list
            case .asyncDone:
                return DiscoveredMedia(containerTags: tags, audioTags: nil, duration: playbin.queryDuration())
            case .error, .endOfStream:
                return nil
            default:
                continue
            }
        }
        return nil
    }
}
