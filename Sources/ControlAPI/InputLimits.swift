/// What the daemon accepts from one client, and what the CLI keeps to: anything on the session bus may call
/// quaverd, and one call must neither fill its memory nor hold every other client back.
/// docs/privacy-and-hostile-input.md lists them with the errors that refuse more.
public enum InputLimits {
    /// Bytes of one URI (OpenUri, AddTrack, each of AddTracks, ReplaceQueue, AddFolderTracks): a
    /// percent-encoded path of PATH_MAX bytes takes at most 12 KiB; a longer one is no file name (InvalidArgs).
    public static let maximumURIBytes = 64 << 10
    /// URIs in one AddTracks, ReplaceQueue or AddFolderTracks, and entries of one expansion by the CLI
    /// (LimitsExceeded).
    public static let maximumURIsPerCall = 100_000
    /// Tracks in the queue; an edit that would make it longer is refused whole (LimitsExceeded).
    public static let maximumQueueLength = 100_000
}
