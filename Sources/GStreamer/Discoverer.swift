import CGLib
import CGStreamer
import CGStreamerLibraries
import EventLoop
import Dispatch
import FoundationEssentials
import Glibc

/// What GstDiscoverer found in one file: the container's tags, the first audio stream's, the length.
public struct DiscoveredMedia {
    public let containerTags: TagList?
    public let audioTags: TagList?
    public let duration: Duration?
}

/// GstDiscoverer on a thread of its own, one file at a time.
///
///   discover(uri) ─▶ [discoverer thread: its own GMainContext, GstDiscoverer in async mode]
///                                  │ "discovered"
///   completion(DiscoveredMedia?) ◀─┘ runs on the discoverer thread
///
/// Why a thread: in async mode the discoverer sets each file's pipeline up and down from the thread-default
/// main context it was started in (`gst_element_set_state` of a decodebin, plugin loading for the first file
/// of a format). On the daemon's loop, while 20 000 queued files were read, a third of the loop's time went
/// to those state changes (perf), and D-Bus callers waited behind them. Here the loop never waits for it.
public final class Discoverer: @unchecked Sendable {
    private let worker: Worker
    /// Signalled by the thread as it ends.
    private let ended: DispatchSemaphore

    /// - Parameter timeout: how long one file may take before it is given up (`gst_discoverer_new`).
    public init(timeout: Duration) throws {
        GStreamer.initialize()
        let worker = Worker()
        let start = StartResult()
        let ended = DispatchSemaphore(value: 0)
        self.ended = ended
        self.worker = worker
        // At nice 10: the queue's tags are read beside the loop, and on two cores this thread's CPU made
        // D-Bus callers wait. The streaming threads GStreamer starts for each file come from GLib's shared
        // thread pool and keep nice 0 (seen with `ps -L` while 20 000 files were read).
        NamedThread.start("quaver-discoverer", nice: NamedThread.background) {
            worker.run(timeout: timeout) { start.failure = $0; start.done.signal() }
            ended.signal()
        }
        start.done.wait()
        if let failure = start.failure { throw failure }
    }

    /// Stops the thread and waits for it to end.
    deinit {
        let worker = worker
        worker.invoke { worker.shutDown() }
        ended.wait()
    }

    /// Reads `uri`; `completion` runs on the discoverer thread with what was found, or `nil` when the file
    /// cannot be read. One file at a time: call again only after the completion ran.
    public func discover(_ uri: String, completion: @escaping (DiscoveredMedia?) -> Void) {
        GStreamer.prepare(forURI: uri)
        let worker = worker
        worker.invoke { worker.discover(uri, completion) }
    }
}

/// Everything the discoverer thread owns; used only on that thread, but for `invoke`.
private final class Worker: @unchecked Sendable {
    private let context = g_main_context_new()!
    private let loop: OpaquePointer
    private var discoverer: UnsafeMutablePointer<GstDiscoverer>?
    private var completion: ((DiscoveredMedia?) -> Void)?
    private var handler: gulong = 0

    init() { loop = g_main_loop_new(context, 0) }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// The thread's body: the discoverer started from this thread's own context, then its loop.
    func run(timeout: Duration, started: (GStreamerError?) -> Void) {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let made: UnsafeMutablePointer<GstDiscoverer>
        do { made = try makeGstDiscoverer(timeout: timeout) } catch { return started(error) }
        discoverer = made
        connectDiscovered(made)
        quaver_gst_discoverer_start(made)  // its pipelines now run from this thread's context
        started(nil)
        g_main_loop_run(loop)
    }

    func discover(_ uri: String, _ done: @escaping (DiscoveredMedia?) -> Void) {
        guard let discoverer else { return done(nil) }
        completion = done
        if quaver_gst_discoverer_discover_uri_async(discoverer, uri) == 0 { finish(nil) }
    }

    /// The discoverer is stopped only when idle: GStreamer 1.22's `gst_discoverer_stop` sets a pipeline
    /// mid-read to READY while holding the lock that the pad-removed handler this triggers takes, and hangs
    /// for good; a discoverer mid-read is left to the process exit (its handler disconnected).
    /// Upstream: no issue found; `gst_discoverer_stop` still sets READY under the DISCO_LOCK that
    /// `uridecodebin_pad_removed_cb` takes in GStreamer 1.29.2 (main, 2026-08): not fixed upstream.
    func shutDown() {
        if let discoverer {
            g_signal_handler_disconnect(discoverer, handler)
            if completion == nil {
                quaver_gst_discoverer_stop(discoverer)
                g_object_unref(discoverer)
            }
        }
        discoverer = nil
        g_main_loop_quit(loop)
    }

    private func finish(_ media: DiscoveredMedia?) {
        let done = completion
        completion = nil
        done?(media)
    }

    private func discovered(_ info: OpaquePointer?) {
        finish(info.flatMap(DiscoveredMedia.init(readable:)))
    }

    /// `discovered` (discoverer, info, error, user data), emitted on the discoverer thread. The worker
    /// outlives the connection: it is disconnected in `shutDown`, before the thread ends.
    private func connectDiscovered(_ discoverer: UnsafeMutablePointer<GstDiscoverer>) {
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?,
                                      UnsafeMutableRawPointer?) -> Void = { _, info, _, data in
            Unmanaged<Worker>.fromOpaque(data!).takeUnretainedValue().discovered(info)
        }
        handler = g_signal_connect_data(discoverer, "discovered", unsafeBitCast(callback, to: GCallback.self),
                                        Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
    }

    /// Runs `body` on the discoverer thread (`g_main_context_invoke_full`). Safe from any thread.
    func invoke(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Invocation(body)).toOpaque()
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<Invocation>.fromOpaque(data!).takeUnretainedValue().body()
            return 0  // G_SOURCE_REMOVE
        }, box, { data in Unmanaged<Invocation>.fromOpaque(data!).release() })
    }
}

/// `gst_discoverer_new`; `timeout` bounds the reading of one file. Its `timeout` property takes 1 s to
/// 1 hour: outside that GLib warns and the discoverer keeps its 15 s default, so the value is clamped here.
/// Upstream: by design (the property's range in gstdiscoverer.c, GLib's check of it), still so in GStreamer 1.29.2.
func makeGstDiscoverer(timeout: Duration) throws(GStreamerError) -> UnsafeMutablePointer<GstDiscoverer> {
    let accepted = min(max(timeout, .seconds(1)), .seconds(3600))
    var error: UnsafeMutablePointer<GError>?
    guard let made = quaver_gst_discoverer_new(GstClockTime(accepted.nanoseconds), &error) else {
        throw error.map { GStreamerError(taking: $0, debug: nil) }
            ?? GStreamerError(domain: .other("discoverer"), code: 0, message: "cannot make a GstDiscoverer")
    }
    return made
}

extension DiscoveredMedia {
    /// What a finished discovery found, or nil when it did not succeed (`GST_DISCOVERER_OK`): a timeout,
    /// a missing plugin, a file that is not media.
    init?(readable info: OpaquePointer) {
        guard quaver_gst_discoverer_info_get_result(info) == GST_DISCOVERER_OK else { return nil }
        var container: TagList?
        if let top = quaver_gst_discoverer_info_get_stream_info(info) {
            container = Self.copy(quaver_gst_discoverer_stream_info_get_tags(top))
            g_object_unref(UnsafeMutableRawPointer(top))  // gst_discoverer_stream_info_unref is a macro
        }
        var audio: TagList?
        if let streams = quaver_gst_discoverer_info_get_audio_streams(info) {
            audio = Self.copy(quaver_gst_discoverer_stream_info_get_tags(OpaquePointer(streams.pointee.data)))
            quaver_gst_discoverer_stream_info_list_free(streams)
        }
        let nanoseconds = quaver_gst_discoverer_info_get_duration(info)
        let known = nanoseconds != 0 && nanoseconds != UInt64.max  // GST_CLOCK_TIME_NONE
        self.init(containerTags: container, audioTags: audio, duration: known ? .nanoseconds(Int64(nanoseconds)) : nil)
    }

    private static func copy(_ list: UnsafePointer<GstTagList>?) -> TagList? {
        guard let list, let copy = gst_tag_list_copy(list) else { return nil }
        return TagList(owning: copy)
    }
}

/// How the thread's start went, handed back to `init` (which waits on `done`).
private final class StartResult: @unchecked Sendable {
    var failure: GStreamerError?
    let done = DispatchSemaphore(value: 0)
}

private final class Invocation {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
