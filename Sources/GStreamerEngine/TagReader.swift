// Tags and lengths of queued files, read before they play, so clients show real titles for the whole queue.
//
//   enqueue(items) ──▶ waiting (bounded FIFO) ──one at a time──▶ GstDiscoverer (async mode)
//                                                                   │ streaming threads typefind and parse
//                                            onRead(id, tags, length) ◀── "discovered" (loop thread)
//
// GstDiscoverer in async mode (gst_discoverer_start) runs its pipelines from the thread-default main
// context at start, which is the daemon's GLib loop: the loop only sets a pipeline up and receives the
// result, the parsing happens on GStreamer's threads. One file at a time keeps that cost small and even.
import CGLib
import CGStreamer
import GStreamer
import PlayerCore

public final class TagReader {
    /// Called on the loop thread for each file read; files that cannot be read are skipped silently
    /// (the engine reports them if they are ever played).
    public var onRead: ((TrackID, TrackTags, Duration?) -> Void)?
    /// Files waiting; more than this are refused by `enqueue`.
    public let capacity: Int

    private let discoverer: UnsafeMutablePointer<GstDiscoverer>
    private var waiting: [EngineItem] = []
    /// Index of the next item in `waiting`: popping from the front of a 20 000-item array must not shift it.
    private var head = 0
    private var inFlight: EngineItem?
    private var handler: gulong = 0

    /// - Parameter timeout: how long one file may take before it is given up (`gst_discoverer_new`).
    public init(timeout: Duration = .seconds(5), capacity: Int = 100_000) throws {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(GstClockTime(timeout.nanoseconds), &error) else {
            defer { g_clear_error(&error) }
            throw GStreamerError(domain: .other("discoverer"), code: error?.pointee.code ?? 0,
                                 message: error.map { String(cString: $0.pointee.message) } ?? "cannot make a GstDiscoverer")
        }
        self.discoverer = discoverer
        self.capacity = capacity
        connectDiscovered()
        gst_discoverer_start(discoverer)
    }

    deinit {
        g_signal_handler_disconnect(discoverer, handler)
        // GStreamer 1.22's gst_discoverer_stop sets the pipeline to READY while holding the discoverer's
        // lock, and the pad-removed handler that this triggers takes the same lock: stopping during a
        // read hangs for good (seen at daemon exit). Mid-read the discoverer is left to the process exit.
        guard inFlight == nil else { return }
        gst_discoverer_stop(discoverer)
        g_object_unref(discoverer)
    }

    /// Files waiting or being read.
    public var pendingCount: Int { waiting.count - head + (inFlight == nil ? 0 : 1) }

    /// Queues files to read; returns how many were accepted (all, unless `capacity` is reached).
    @discardableResult
    public func enqueue(_ items: [EngineItem]) -> Int {
        let accepted = items.prefix(max(0, capacity - pendingCount))
        waiting.append(contentsOf: accepted)
        startNext()
        return accepted.count
    }

    /// Forgets every waiting file (the queue was replaced); the one being read still reports.
    public func removeAll() {
        waiting.removeAll()
        head = 0
    }

    private func startNext() {
        while inFlight == nil, head < waiting.count {
            let item = waiting[head]
            head += 1
            compactIfDrained()
            // Refused only for a URI the discoverer cannot even queue: go on with the next one.
            if gst_discoverer_discover_uri_async(discoverer, item.uri) != 0 { inFlight = item }
        }
    }

    private func compactIfDrained() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: false)
            head = 0
        } else if head > 4096, head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }

    private func discovered(_ info: OpaquePointer?) {
        let item = inFlight
        inFlight = nil
        if let item, let info, gst_discoverer_info_get_result(info) == GST_DISCOVERER_OK {
            let (tags, length) = Self.read(info)
            onRead?(item.id, tags, length)
        }
        startNext()
    }

    /// The container's tags, then the first audio stream's; the cover image is left out, not even copied
    /// (it would be kept for every queued track: the engine reads it when the track plays).
    private static func read(_ info: OpaquePointer) -> (TrackTags, Duration?) {
        var tags = TrackTags()
        if let top = gst_discoverer_info_get_stream_info(info) {
            merge(gst_discoverer_stream_info_get_tags(top), into: &tags)
            g_object_unref(UnsafeMutableRawPointer(top))  // gst_discoverer_stream_info_unref is a macro
        }
        if let streams = gst_discoverer_info_get_audio_streams(info) {
            merge(gst_discoverer_stream_info_get_tags(OpaquePointer(streams.pointee.data)), into: &tags)
            gst_discoverer_stream_info_list_free(streams)
        }
        let nanoseconds = gst_discoverer_info_get_duration(info)
        let known = nanoseconds != 0 && nanoseconds != UInt64.max  // GST_CLOCK_TIME_NONE
        return (tags, known ? .nanoseconds(Int64(nanoseconds)) : nil)
    }

    private static func merge(_ list: UnsafePointer<GstTagList>?, into tags: inout TrackTags) {
        guard let list, let copy = gst_tag_list_copy(list) else { return }
        tags.merge(TagList(owning: copy), includingImage: false)
    }

    /// `discovered` (discoverer, info, error, user data): emitted on the loop thread in async mode.
    private func connectDiscovered() {
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?,
                                      UnsafeMutableRawPointer?) -> Void = { _, info, _, data in
            Unmanaged<TagReader>.fromOpaque(data!).takeUnretainedValue().discovered(info)
        }
        handler = g_signal_connect_data(discoverer, "discovered", unsafeBitCast(callback, to: GCallback.self),
                                        Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
    }
}
