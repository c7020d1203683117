import FoundationEssentials
import PublicText

/// One key of `config.toml`: where it lives and how its TOML value is checked and stored.
struct Setting {
    let section: String
    let key: String
    /// Stores `value` into the configuration, or returns what was expected instead.
    let apply: (TOMLValue, inout Configuration) -> String?

    var name: String { "\(section).\(key)" }

    /// Every key Quaver reads. Adding a setting means a line here, a field in `Configuration`, and a
    /// line in `config.example.toml` (the example test fails until all three agree).
    static let all: [Setting] = [
        text("audio", "output", \.audio.output),
        flag("playback", "resume-on-start", \.playback.resumeOnStart),
        flag("playback", "resume-paused", \.playback.resumePaused),
        flag("playback", "gapless", \.playback.gapless),
        choice("playback", "replaygain", \.playback.replayGain),
        number("playback", "replaygain-preamp-db", \.playback.replayGainPreAmpDB, -15...15),
        number("playback", "sleep-fade-seconds", \.playback.sleepFadeSeconds, 0...600),
        integer("playback", "fade-on-pause-ms", \.playback.fadeOnPauseMS, 0...10_000),
        integer("playback", "fade-on-skip-ms", \.playback.fadeOnSkipMS, 0...10_000),
        number("playback", "crossfade-seconds", \.playback.crossfadeSeconds, 0...12),
        integer("playback", "tags-wait-ms", \.playback.tagsWaitMS, 0...5_000),
        flag("interruptions", "pause-on-cork", \.interruptions.pauseOnCork),
        flag("interruptions", "resume-after-cork", \.interruptions.resumeAfterCork),
        flag("interruptions", "pause-on-call", \.interruptions.pauseOnCall),
        flag("interruptions", "resume-after-call", \.interruptions.resumeAfterCall),
        flag("interruptions", "pause-on-suspend", \.interruptions.pauseOnSuspend),
        flag("interruptions", "resume-after-wake", \.interruptions.resumeAfterWake),
        flag("interruptions", "pause-on-output-removed", \.interruptions.pauseOnOutputRemoved),
        flag("interruptions", "resume-when-output-returns", \.interruptions.resumeWhenOutputReturns),
        seconds("interruptions", "resume-window-minutes", \.interruptions.resumeWindowMinutes, upTo: 1440, unit: "minutes"),
        flag("interruptions", "pause-on-session-inactive", \.interruptions.pauseOnSessionInactive),
        flag("interruptions", "pause-when-other-player-starts", \.interruptions.pauseWhenOtherPlayerStarts),
        flag("power", "keep-awake-while-playing", \.power.keepAwakeWhilePlaying),
        integer("network", "cache-size-mb", \.network.cacheSizeMB, 0...1_048_576),
        integer("network", "retries", \.network.retries, 0...100),
        seconds("network", "connect-timeout-seconds", \.network.connectTimeoutSeconds, upTo: 3600),
        proxy("network", "proxy", \.network.proxy),
        flag("notifications", "enabled", \.notifications.enabled),
        number("notifications", "timeout-seconds", \.notifications.timeoutSeconds, 0...3600),
        host("snapcast", "host", \.snapcast.host),
        integer("snapcast", "port", \.snapcast.port, 1...65_535),
        sampleFormat("snapcast", "sample-format", \.snapcast.sampleFormat),
        folders("library", "folders", \.library.folders),
        webRoot("scrobble", "listenbrainz-url", \.scrobble.listenBrainzURL),
        absolutePath("scrobble", "token-file", \.scrobble.tokenFile),
        anyText("scrobble", "token-command", \.scrobble.tokenCommand),
        choice("log", "level", \.log.level),
    ]

    private static func flag(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, Bool>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let flag = value.bool else { return "true or false" }
            configuration[keyPath: field] = flag
            return nil
        }
    }

    private static func integer(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, Int>,
                                _ range: ClosedRange<Int>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let number = value.int, range.contains(number) else {
                return "an integer from \(range.lowerBound) to \(range.upperBound)"
            }
            configuration[keyPath: field] = number
            return nil
        }
    }

    /// A duration in `unit`s: an integer or a float, more than 0 and at most `limit`.
    private static func seconds(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, Double>,
                                upTo limit: Double, unit: String = "seconds") -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let number = value.double ?? value.int.map(Double.init), number > 0, number <= limit else {
                return "a number of \(unit) more than 0 and at most \(Int(limit))"
            }
            configuration[keyPath: field] = number
            return nil
        }
    }

    /// An integer or a float within `range`.
    private static func number(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, Double>,
                               _ range: ClosedRange<Double>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let number = value.double ?? value.int.map(Double.init), range.contains(number) else {
                return "a number from \(range.lowerBound) to \(range.upperBound)"
            }
            configuration[keyPath: field] = number
            return nil
        }
    }

    private static func text(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let text = value.string, !text.trimmingWhitespace().isEmpty else {
                return "a non-empty string"
            }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// Empty, or an http(s) URL.
    private static func webRoot(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let text = value.string, text.isEmpty || text.hasPrefix("https://") || text.hasPrefix("http://"),
                  !text.contains(where: { $0.isWhitespace }) else { return "\"\" or an http(s) URL" }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// Any string, empty included.
    private static func anyText(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let text = value.string else { return "a string" }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// Empty, or an absolute path.
    private static func absolutePath(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let text = value.string, text.isEmpty || text.hasPrefix("/") else { return "\"\" or an absolute path" }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// Empty, or a proxy URL with a scheme libcurl and libsoup both know and a host.
    private static func proxy(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            let expected = "\"\" or a proxy URL such as \"http://proxy.example:3128\""
            guard let text = value.string else { return expected }
            if !text.isEmpty {
                guard let parts = URLComponents(string: text), ["http", "https", "socks5", "socks4"].contains(parts.scheme),
                      parts.host?.isEmpty == false else { return expected }
            }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// A host name or an IP address (IPv6 without brackets): letters, digits, `.`, `-` and `:` only, so
    /// it can go into the output's sink description as it is.
    private static func host(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
            guard let text = value.string, !text.isEmpty, text.count <= 253, text.allSatisfy(allowed.contains) else {
                return "a host name or an IP address, such as \"127.0.0.1\""
            }
            configuration[keyPath: field] = text
            return nil
        }
    }

    /// A list of folders: each absolute, `~/…`, or `$XDG_MUSIC_DIR` (and what follows it).
    private static func folders(_ section: String, _ key: String, _ field: WritableKeyPath<Configuration, [String]>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            let expected = "a list of folders such as [\"\(Configuration.Library.musicFolder)\", \"/mnt/nas/music\"] "
                + "(each absolute, ~/…, or \(Configuration.Library.musicFolder); at most \(Configuration.Library.maximumFolderCount))"
            guard let array = value.array, array.count <= Configuration.Library.maximumFolderCount else { return expected }
            let folders = array.compactMap(\.string)
            let valid = folders.allSatisfy { folder in
                !folder.contains("\0") && ["/", "~/", Configuration.Library.musicFolder].contains { folder.hasPrefix($0) }
            }
            guard folders.count == array.count, valid else { return expected }
            configuration[keyPath: field] = folders
            return nil
        }
    }

    private static func sampleFormat(_ section: String, _ key: String,
                                     _ field: WritableKeyPath<Configuration, SnapcastSampleFormat>) -> Setting {
        Setting(section: section, key: key) { value, configuration in
            guard let format = value.string.flatMap(SnapcastSampleFormat.init) else {
                let rates = SnapcastSampleFormat.rates, channels = SnapcastSampleFormat.channelCounts
                return "\"rate:bits:channels\" such as \"48000:16:2\" (rate \(rates.lowerBound) to \(rates.upperBound), "
                    + "bits 16, 24 or 32, \(channels.lowerBound) to \(channels.upperBound) channels)"
            }
            configuration[keyPath: field] = format
            return nil
        }
    }

    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ section: String, _ key: String, _ field: WritableKeyPath<Configuration, Choice>
    ) -> Setting where Choice.RawValue == String {
        Setting(section: section, key: key) { value, configuration in
            guard let choice = value.string.flatMap(Choice.init(rawValue:)) else {
                return "one of " + Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            }
            configuration[keyPath: field] = choice
            return nil
        }
    }
}
