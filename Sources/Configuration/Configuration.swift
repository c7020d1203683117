// Configuration: the user's settings (`config.toml`), read by our own TOML reader. An adapter without C: may import
// BaseDirectories, PublicText and FoundationEssentials.
/// The user's settings from `config.toml`. Every field has a default, so a missing file or key means
/// "as shipped"; `config.example.toml` at the repository root lists the same defaults (a test keeps them equal).
public struct Configuration: Equatable, Sendable {
    public var audio = Audio()
    public var playback = Playback()
    public var interruptions = Interruptions()
    public var power = Power()
    public var network = Network()
    public var notifications = Notifications()
    public var snapcast = Snapcast()
    public var library = Library()
    public var scrobble = Scrobble()
    public var log = Log()

    public init() {}

    /// `[audio]`
    public struct Audio: Equatable, Sendable {
        /// `output`: a GStreamer sink description for playbin's `audio-sink`, e.g. `pulsesink` or
        /// `pulsesink device=alsa_output.usb`, or `snapcast` (the `[snapcast]` section says where). Not empty.
        public var output = "pulsesink"

        /// The `output` that sends the sound to a Snapcast server instead of a sound card.
        public static let snapcastOutput = "snapcast"
    }

    /// `[playback]`
    public struct Playback: Equatable, Sendable {
        /// `resume-on-start`: restore the saved queue and position when the daemon starts.
        public var resumeOnStart = true
        /// `resume-paused`: after restoring, wait paused instead of playing.
        public var resumePaused = true
        /// `gapless`: queue the next track ahead (playbin `about-to-finish`) so tracks join without a gap.
        public var gapless = true
        /// `replaygain`: level tracks by their ReplayGain tags.
        public var replayGain = ReplayGainMode.off
        /// `replaygain-preamp-db`: added to every tagged track's gain, −15…15 dB (never past full scale).
        public var replayGainPreAmpDB = 0.0
        /// `sleep-fade-seconds`: how long the sleep timer fades the sound out before it pauses, 0…600.
        public var sleepFadeSeconds = 10.0
        /// `fade-on-pause-ms`: Pause and Stop fade the sound out over this many milliseconds, Play fades it in;
        /// 0…10 000, 0 is no fade.
        public var fadeOnPauseMS = 0
        /// `fade-on-skip-ms`: Next, Previous, a jump or opening a file fade the track heard out over this many
        /// milliseconds before the next starts; 0…10 000, 0 is no fade.
        public var fadeOnSkipMS = 0
        /// `crossfade-seconds`: a joint between tracks not of one album overlaps for this many seconds, 0…12,
        /// 0 is none (every joint gapless). The state file's value, once set over D-Bus, wins at start.
        public var crossfadeSeconds = 0.0
        /// `tags-wait-ms`: how long a track becoming current may wait for its file's tags and cover to be read,
        /// so that the signal announcing it carries them (the caller of Next waits as long); 0…5 000.
        public var tagsWaitMS = 40
    }

    /// `[interruptions]`: what the daemon does when something else needs the sound or the session.
    public struct Interruptions: Equatable, Sendable {
        /// `pause-on-cork`: pause when the sound server corks us (a call starts).
        public var pauseOnCork = true
        /// `resume-after-cork`: play again when the cork ends, if the cork paused us.
        public var resumeAfterCork = true
        /// `pause-on-call`: pause while a call plays (a phone-role stream), on PulseAudio and PipeWire.
        public var pauseOnCall = true
        /// `resume-after-call`: play again about a second after the call ends, if the call paused us.
        public var resumeAfterCall = true
        /// `pause-on-suspend`: pause before the machine sleeps.
        public var pauseOnSuspend = true
        /// `resume-after-wake`: play again after wake, if suspend paused us.
        public var resumeAfterWake = false
        /// `pause-on-output-removed`: pause when the output device in use goes away (headphones unplugged).
        public var pauseOnOutputRemoved = true
        /// `resume-when-output-returns`: play again when the output whose removal paused us comes back (by its
        /// sink name) within `resume-window-minutes`, if the user did nothing since.
        public var resumeWhenOutputReturns = true
        /// `resume-window-minutes`: how long after the removal its return still resumes, more than 0, at most 1440.
        public var resumeWindowMinutes = 5.0
        /// `pause-on-session-inactive`: pause when the login session becomes inactive (user switch, lock).
        public var pauseOnSessionInactive = true
        /// `pause-when-other-player-starts`: pause when another MPRIS player starts playing.
        public var pauseWhenOtherPlayerStarts = false

        public init() {}
    }

    /// `[power]`: how playing music affects the machine's power saving.
    public struct Power: Equatable, Sendable {
        /// `keep-awake-while-playing`: hold off automatic (idle) suspend while playing; never the screen's
        /// blanking or locking, never a suspend the user asks for.
        public var keepAwakeWhilePlaying = true
    }

    /// `[network]`: streams and remote files.
    public struct Network: Equatable, Sendable {
        /// `cache-size-mb`: disk cache for remote files, in MiB, 0…1 048 576; 0 turns the cache off.
        public var cacheSizeMB = 1024
        /// `retries`: reconnection attempts after a network error, 0…100.
        public var retries = 3
        /// `connect-timeout-seconds`: how long to wait for a server, more than 0 and at most 3600.
        public var connectTimeoutSeconds = 10.0
        /// `proxy`: `scheme://host:port` of a proxy for every network source; empty: the `http_proxy`,
        /// `https_proxy` and `no_proxy` environment variables decide.
        public var proxy = ""
    }

    /// `[notifications]`: a desktop notification when another track starts.
    public struct Notifications: Equatable, Sendable {
        /// `enabled`: show the title, artist, album and cover of each new track.
        public var enabled = false
        /// `timeout-seconds`: how long each notification stays, 0…3600; 0 lets the notification server decide.
        public var timeoutSeconds = 0.0
    }

    /// `[snapcast]`: where `output = "snapcast"` sends the sound. The defaults are snapserver's own: its
    /// `tcp` source listens on port 4953 and reads 48000:16:2 unless told otherwise.
    public struct Snapcast: Equatable, Sendable {
        /// `host`: the address of snapserver's `tcp` source (mode=server), a name or an IP address.
        public var host = "127.0.0.1"
        /// `port`: its port, 1…65535.
        public var port = 4953
        /// `sample-format`: `rate:bits:channels`, as the stream's `sampleformat` in snapserver.conf.
        public var sampleFormat = SnapcastSampleFormat(rate: 48_000, bits: 16, channels: 2)
    }

    /// `[scrobble]`: listens sent to ListenBrainz or a server speaking its API. The token is never in this file.
    public struct Scrobble: Equatable, Sendable {
        /// `listenbrainz-url`: the server's root, e.g. `https://api.listenbrainz.org`; empty: nothing is sent.
        public var listenBrainzURL = ""
        /// `token-file`: absolute path of a file only its owner may read (0600) holding the user token.
        public var tokenFile = ""
        /// `token-command`: a command (run with `/bin/sh -c`) that prints the token, e.g. a password manager's.
        public var tokenCommand = ""
    }

    /// `[library]`: the music library (docs/library.md).
    public struct Library: Equatable, Sendable {
        /// `folders`: the folders indexed, absolute or `~/…`; `$XDG_MUSIC_DIR` stands for the user's music
        /// folder (from `user-dirs.dirs`, else `~/Music`). `[]` turns the library off.
        public var folders = [musicFolder]

        /// The placeholder for the user's XDG music folder.
        public static let musicFolder = "$XDG_MUSIC_DIR"
        public static let maximumFolderCount = 64
    }

    /// `[log]`
    public struct Log: Equatable, Sendable {
        /// `level`: the least severe messages written.
        public var level = LogLevel.info
    }
}

/// `[playback] replaygain`: off, each track's own gain, the album's gain (the track's when untagged), or
/// auto: the album's gain for a track whose neighbour in play order is from the same album, else the track's.
public enum ReplayGainMode: String, CaseIterable, Sendable {
    case off, track, album, auto
}

/// snapserver's `sampleformat`, `rate:bits:channels`, e.g. `48000:16:2`.
public struct SnapcastSampleFormat: Equatable, Sendable, CustomStringConvertible {
    public static let rates = 8_000...192_000
    /// snapserver reads 16- and 32-bit samples, and 24-bit ones in 4 bytes each (`S24_32LE`).
    public static let bitDepths = [16, 24, 32]
    public static let channelCounts = 1...8

    public let rate: Int
    public let bits: Int
    public let channels: Int

    public init(rate: Int, bits: Int, channels: Int) {
        self.rate = rate
        self.bits = bits
        self.channels = channels
    }

    /// Parses `rate:bits:channels`; nil when a part is missing or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let rate = parts[0], let bits = parts[1], let channels = parts[2],
              Self.rates.contains(rate), Self.bitDepths.contains(bits), Self.channelCounts.contains(channels)
        else { return nil }
        self.init(rate: rate, bits: bits, channels: channels)
    }

    public var description: String { "\(rate):\(bits):\(channels)" }
}

/// Log levels, named as swift-log names them.
public enum LogLevel: String, CaseIterable, Sendable {
    case trace, debug, info, notice, warning, error, critical
}
