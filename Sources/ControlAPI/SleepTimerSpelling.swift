/// How the sleep timer is named on the bus (`org.quaver.Quaver1.SleepTimer`, `SetSleepTimer`) and in the
/// state file: one spelling for the daemon, the CLI and the tests.
public enum SleepTimerSpelling: String, CaseIterable, Sendable {
    case off
    /// A number of seconds from now.
    case time
    case endOfTrack = "end-of-track"
    case endOfAlbum = "end-of-album"

    /// The longest timed sleep accepted, in seconds (a week).
    public static let longest: Int64 = 7 * 24 * 3600
}
