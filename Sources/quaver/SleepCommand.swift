import ArgumentParser
import ControlAPI
import DBus
import QuaverClient

struct Sleep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pause later: after a time (30m, 1h15m, 90s; a bare number is minutes), at the end of the track or album, or off.",
        discussion: """
            The sound fades out over [playback] sleep-fade-seconds first; the volume is back for the next Play. \
            Without an argument, shows the timer.
            """)

    @OptionGroup var options: ClientOptions
    @Argument(help: "A time such as 30m or 1h15m, end-of-track, end-of-album, or off.") var when: String?

    func run() throws {
        let client = try options.connect()
        if let when {
            guard let (mode, seconds) = Self.parse(when) else {
                throw ValidationError("sleep takes a time such as 30m or 1h15m, end-of-track, end-of-album or off, not \(when)")
            }
            try client.setSleepTimer(mode: mode.rawValue, seconds: seconds)
        }
        let timer = SleepTimerText(try client.sleepTimer())
        Terminal.line(timer?.description ?? "sleep timer off")
    }

    /// The mode and seconds `SetSleepTimer` takes, or nil.
    static func parse(_ text: String) -> (SleepTimerSpelling, Int64)? {
        if let mode = SleepTimerSpelling(rawValue: text), mode != .time { return (mode, 0) }
        guard let seconds = TimeText.parseSpan(text), seconds > 0 else { return nil }
        return (.time, seconds)
    }
}

/// The `SleepTimer` property as users read it, or nil when it is off (or unreadable).
struct SleepTimerText: CustomStringConvertible {
    let mode: SleepTimerSpelling
    let seconds: Int64

    init?(_ value: DBusValue) {
        guard let fields = value.arrayValue, fields.count == 2, let name = fields[0].stringValue,
              let mode = SleepTimerSpelling(rawValue: name), mode != .off else { return nil }
        self.mode = mode
        seconds = fields[1].int64Value ?? 0
    }

    var description: String {
        switch mode {
        case .time: return "sleep in \(TimeText.format(microseconds: seconds * 1_000_000))"
        case .endOfTrack: return "sleep at the end of this track"
        case .endOfAlbum: return "sleep at the end of this album"
        case .off: return "sleep timer off"
        }
    }
}
