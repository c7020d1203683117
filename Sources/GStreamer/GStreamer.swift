// The GStreamer wrapper: the few dozen C calls Quaver needs, each behind a small Swift type.
//
//   Element (playbin, sinks, filters) ── bus ──▶ Bus ── watch on the GLib default context ──▶ Message
//      └─ connect(signal) ──▶ SignalConnection (handler runs on a GStreamer streaming thread)
//
// Handles GStreamer reference-counts are classes that unref in `deinit`; registrations (bus watch,
// signal handler) return guards that unregister when released.
// A wrapper: it owns every GStreamer call; may import CGStreamer, CGStreamerLibraries, CGLib, CShims, EventLoop and Foundation.
import CGStreamer
import CGStreamerLibraries
import CGLib
import Glibc

public enum GStreamer {
    /// Calls `gst_init` once per process. Safe to call from any thread, any number of times. The wrapper's entry
    /// points (elements, type finding, the registry, the discoverer) call it themselves: the daemon does not run
    /// it at start-up, only when something first needs GStreamer (docs/reliability.md, "Memory at rest").
    public static func initialize() {
        _ = initialized
    }

    /// Whether `gst_init` has run in this process (`gst_is_initialized`).
    public static var isInitialized: Bool { gst_is_initialized() != 0 }

    /// The version of the GStreamer library loaded, e.g. "1.22.0" (`gst_version`, which needs no `gst_init`).
    public static var version: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)" + (nano == 0 ? "" : ".\(nano)")
    }

    /// Whether GStreamer's http elements run on libsoup 2.4 (`HTTPSourceLibrary`); false without libsoup2.4-1.
    /// Loads it if it is not yet.
    public static var httpOnLibsoup2: Bool {
        initialize()
        return HTTPSourceLibrary.onLibsoup2
    }

    /// Told once, when the first URI that is not a local file's reaches GStreamer, whether its http elements run on
    /// libsoup 2.4 (the daemon says in its log when they cannot). Set it before the first load.
    public static var httpLibraryChosen: (Bool) -> Void = { _ in }

    private static let initialized: Bool = {
        gst_init(nil, nil)
        loadLibraries()
        return true
    }()

    /// pbutils, app, audio and base (`CGStreamerLibraries`), which the program does not link: what needs them runs
    /// after `gst_init`. They come with GStreamer's base plugins, which the package depends on; without them nothing
    /// could play, and quaverd stops with the reason, as it did when they were linked and missing.
    private static func loadLibraries() {
        guard quaver_gst_libraries_load() != 1 else { return }
        fputs("quaverd: \(String(cString: quaver_gst_libraries_load_error()))\n", stderr)
        exit(1)
    }

    /// Chooses the http elements' libsoup before an element that may make one is given `uri` (`Element.set("uri",
    /// …)`, `Discoverer.discover`). libsoup 2.4 is loaded after `gst_init`, not before: a registry scanned inside
    /// the process (no plugin scanner to fork, `GST_REGISTRY_FORK=no`) loads every plugin, webrtc's links libsoup 3,
    /// and libsoup 3 stops the process when libsoup 2.4 is in it already (measured: "libsoup2 symbols detected",
    /// SIGTRAP at start). GStreamer picks its libsoup when the first http element is made, after this. And it is
    /// loaded by the first stream, not at start-up: with libxml2, ICU (and, through ICU, libstdc++) and Kerberos it
    /// is 2.8 MB resident that a daemon playing local files never needs (docs/reliability.md).
    static func prepare(forURI uri: String) {
        guard !uri.hasPrefix("file:"), !uri.hasPrefix("appsrc:") else { return }
        _ = httpLibraryAnnounced
    }

    private static let httpLibraryAnnounced: Void = { httpLibraryChosen(httpOnLibsoup2) }()
}

/// A GStreamer error (`GError` from an ERROR or WARNING message) with domain, code and debug text kept.
public struct GStreamerError: Error, Equatable, CustomStringConvertible {
    public enum Domain: Equatable { case core, library, resource, stream, other(String) }
    public let domain: Domain
    public let code: Int32
    public let message: String
    public let debug: String?

    public init(domain: Domain, code: Int32, message: String, debug: String? = nil) {
        self.domain = domain
        self.code = code
        self.message = message
        self.debug = debug
    }

    /// Reads and frees a `GError` (`g_error_free`) and the debug string (`g_free`).
    init(taking error: UnsafeMutablePointer<GError>, debug: UnsafeMutablePointer<gchar>?) {
        let quark = error.pointee.domain
        switch quark {
        case gst_core_error_quark(): domain = .core
        case gst_library_error_quark(): domain = .library
        case gst_resource_error_quark(): domain = .resource
        case gst_stream_error_quark(): domain = .stream
        default: domain = .other(String(cString: g_quark_to_string(quark)))
        }
        code = error.pointee.code
        message = String(cString: error.pointee.message)
        self.debug = debug.map { String(cString: $0) }
        g_error_free(error)
        g_free(debug)
    }

    public var description: String { message + (debug.map { " (\($0))" } ?? "") }
}

/// Converts between Swift durations and GStreamer's nanosecond clock times.
extension Duration {
    public init(nanoseconds: Int64) { self = .nanoseconds(nanoseconds) }
    /// Saturates at the ends of Int64 (about ±292 years) instead of trapping on a hostile offset.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let limit: Int64 = seconds < 0 ? .min : .max
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflowed else { return limit }
        let (sum, overflowedAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowedAgain ? limit : sum
    }
}
