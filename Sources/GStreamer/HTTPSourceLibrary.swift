import Glibc

/// Which libsoup GStreamer's HTTP elements (souphttpsrc, hlsdemux2's downloads) run on. GStreamer 1.22
/// loads libsoup itself at the first such element and takes the major version already in the process, else
/// libsoup 3. On libsoup 3.2.3 a souphttpsrc stopped with a request or a read under way can kill the process
/// in its session thread (docs/platform.md, "souphttpsrc stopped mid-request"); loading libsoup 2.4 before
/// GStreamer does makes it use that one instead.
enum HTTPSourceLibrary {
    static let preferred = "libsoup-2.4.so.1"
    static let avoided = "libsoup-3.0.so.0"

    /// Whether libsoup 2.4 is loaded; without it GStreamer takes libsoup 3. Read once `gst_init` has run and before
    /// the first http element is made (`GStreamer.prepare(forURI:)`).
    static let onLibsoup2 = preferLibsoup2()

    /// Loads libsoup 2.4 for good, unless a libsoup 3 is in the process already (preloaded, or linked by a plugin
    /// that a registry scan inside the process loaded): libsoup 3 stops the process when it loads beside 2.4.
    private static func preferLibsoup2() -> Bool {
        guard dlopen(avoided, RTLD_NOW | RTLD_NOLOAD) == nil else { return false }
        return dlopen(preferred, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE) != nil
    }
}
