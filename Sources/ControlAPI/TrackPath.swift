extension ControlAPI {
    /// Track ids on the bus (MPRIS `mpris:trackid`, org.quaver.Quaver1 queue entries): `/org/quaver/Track/<n>`,
    /// where `n` is the queue entry's number, new for every entry and stable while it is queued. Never under
    /// `/org/mpris/`, which the spec reserves for NoTrack (docs/mpris.md, "Track ids").
    public enum TrackPath {
        public static let prefix = "/org/quaver/Track/"
        /// The spec's "no track" marker: AddTrack after it inserts at the start; no current track reads as it.
        public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

        /// Digits after a fixed valid prefix: always a valid object path.
        public static func path(of number: UInt64) -> String {
            prefix + String(number)
        }

        /// The entry number a path names, or nil for anything that is not one of ours (NoTrack, a foreign path).
        public static func number(of path: String) -> UInt64? {
            guard path.hasPrefix(prefix) else { return nil }
            return UInt64(path.dropFirst(prefix.count))
        }
    }
}
