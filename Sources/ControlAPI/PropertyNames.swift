// The names of the properties and metadata entries quaverd publishes, spelled once for the daemon's MPRIS
// adapter and for every client (QuaverClient, the CLI, the Snapcast plugin, the benchmarks, the tests).
// The MPRIS 2.2 spec (org.mpris.MediaPlayer2.Player.xml, "Metadata") fixes the MPRIS and xesam spellings.

/// Properties of org.mpris.MediaPlayer2.Player.
public enum PlayerProperty {
    public static let playbackStatus = "PlaybackStatus"
    public static let loopStatus = "LoopStatus"
    public static let rate = "Rate"
    public static let shuffle = "Shuffle"
    public static let metadata = "Metadata"
    public static let volume = "Volume"
    /// Live only through `Get`: never in PropertiesChanged (the spec's "Position" property).
    public static let position = "Position"
    public static let minimumRate = "MinimumRate"
    public static let maximumRate = "MaximumRate"
    public static let canGoNext = "CanGoNext"
    public static let canGoPrevious = "CanGoPrevious"
    public static let canPlay = "CanPlay"
    public static let canPause = "CanPause"
    public static let canSeek = "CanSeek"
    public static let canControl = "CanControl"
}

/// Properties of org.quaver.Quaver1 (docs/dbus-api.md).
public enum QuaverProperty {
    public static let state = "State"
    public static let bufferingPercent = "BufferingPercent"
    public static let lastError = "LastError"
    /// The kind of `LastError` (`s`, `HealthSpelling.errorKind`); empty when nothing failed.
    public static let lastErrorKind = "LastErrorKind"
    /// The seconds of the current remote track downloaded (`a(dd)`, start and end pairs).
    public static let bufferedRanges = "BufferedRanges"
    /// Why nothing is heard (`s`, `HealthSpelling.waitingReason`).
    public static let waitingReason = "WaitingReason"
    public static let sleepTimer = "SleepTimer"
    public static let queueLength = "QueueLength"
    public static let outputs = "Outputs"
    public static let chosenOutput = "ChosenOutput"
    /// `ad`: the equaliser's pre-amp then its ten bands, dB (`EqualizerSetting`); empty when off.
    public static let equalizer = "Equalizer"
    /// `s`: the preset in use, `off`, or `custom`.
    public static let equalizerPreset = "EqualizerPreset"
    /// `as`: the presets `EqualizerPreset` takes, shipped and the user's own.
    public static let equalizerPresets = "EqualizerPresets"
    /// `d`: seconds a joint between tracks not of one album overlaps, 0…12 (0: none).
    public static let crossfade = "Crossfade"
}

/// Properties of org.quaver.Quaver1.Library.
public enum LibraryProperty {
    /// `b`: a scan of the music folders is running.
    public static let scanning = "Scanning"
    /// `u`: the files the running scan has found to read, and (`filesRead`) has read so far.
    public static let filesToRead = "FilesToRead"
    public static let filesRead = "FilesRead"
    public static let trackCount = "TrackCount"
}

/// Keys of the MPRIS Metadata map (`a{sv}`); ours carry the `quaver:` prefix the spec asks for.
public enum MetadataKey {
    /// An object path (`o`), new for each queue entry.
    public static let trackID = "mpris:trackid"
    /// Microseconds (`x`).
    public static let length = "mpris:length"
    public static let artURL = "mpris:artUrl"
    public static let title = "xesam:title"
    public static let album = "xesam:album"
    public static let url = "xesam:url"
    /// Lists (`as`).
    public static let artist = "xesam:artist"
    public static let albumArtist = "xesam:albumArtist"
    public static let genre = "xesam:genre"
    public static let composer = "xesam:composer"
    /// Numbers (`i`).
    public static let trackNumber = "xesam:trackNumber"
    public static let discNumber = "xesam:discNumber"
    public static let contentCreated = "xesam:contentCreated"
    public static let useCount = "xesam:useCount"
    public static let lastUsed = "xesam:lastUsed"
    public static let userRating = "xesam:userRating"
    public static let year = "quaver:year"
    public static let musicBrainzRecording = "quaver:musicBrainzRecording"
    /// In GetQueue and GetQueueRange only: how the entry fared (`s`, `HealthSpelling.trackStatus`), and for a
    /// failed one its error's text and kind (`s`).
    public static let status = "quaver:status"
    public static let error = "quaver:error"
    public static let errorKind = "quaver:errorKind"
}

/// Keys of org.quaver.Quaver1.GetTrackStatistics' `a{sv}` (docs/dbus-api.md says what each means); a key
/// whose value is unknown is left out.
public enum StatisticsKey {
    /// Bytes (`t`).
    public static let bytesFetched = "bytesFetched"
    public static let bytesPresent = "bytesPresent"
    public static let bytesTotal = "bytesTotal"
    /// Counts (`u`).
    public static let retries = "retries"
    public static let stalls = "stalls"
    /// Bits per second (`u`).
    public static let bitrate = "bitrate"
    /// A GStreamer element factory's name (`s`).
    public static let decoder = "decoder"
}
