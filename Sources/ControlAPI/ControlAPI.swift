// The control API: the names and spellings quaverd answers to on the session bus, written once and shared
// by the daemon (the MPRIS adapter), the `quaver` CLI, the benchmarks and the tests. Pure Swift: it imports
// only PlayerCore (for the loop modes LoopStatus names), so every layer above the core may use it. docs/ARCHITECTURE.md places it; docs/dbus-api.md documents the API.

/// Bus name, object path and interface names. Object paths are plain text here; callers wrap them in the
/// D-Bus layer's `ObjectPath`, which checks them.
public enum ControlAPI {
    /// The well-known name quaverd owns: MPRIS clients find players by the `org.mpris.MediaPlayer2.` prefix.
    public static let busName = "org.mpris.MediaPlayer2.quaver"
    /// The one object quaverd exports; the MPRIS spec fixes this path.
    public static let objectPath = "/org/mpris/MediaPlayer2"

    public static let rootInterface = "org.mpris.MediaPlayer2"
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"
    public static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    public static let playlistsInterface = "org.mpris.MediaPlayer2.Playlists"
    /// Our own interface, on the same object: what the CLI needs and MPRIS lacks. The `1` is its version,
    /// so an incompatible change gets a new name.
    public static let quaverInterface = "org.quaver.Quaver1"
    /// The music library on the same object: search, play and add by query, statistics, scan progress.
    public static let libraryInterface = "org.quaver.Quaver1.Library"
    /// GNOME Shell's search provider (org.gnome.Shell.SearchProvider2), on an object of its own.
    public static let searchProviderPath = "/org/quaver/SearchProvider"
    public static let searchProviderInterface = "org.gnome.Shell.SearchProvider2"
    /// The most tracks one `Search` page returns.
    public static let librarySearchPageLimit = 1000
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
}
