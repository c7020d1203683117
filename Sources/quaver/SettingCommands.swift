import ArgumentParser
import ControlAPI
import DBus
import QuaverClient

struct Volume: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set the volume: 0–100 (percent) or a fraction 0–1 (`0.5`); `1` means full volume.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The new volume.") var value: String?

    func run() throws {
        let client = try options.connect()
        if let value {
            guard let volume = Self.parse(value) else { throw ValidationError("volume must be 0–100 or 0–1, not \(value)") }
            try client.setVolume(volume)
        }
        let volume = try client.volume()
        Terminal.line("volume \(Int((volume * 100).rounded()))%")
    }

    /// Values up to 1 are fractions, larger ones (and any with `%`) percent.
    static func parse(_ text: String) -> Double? {
        let percentSign = text.hasSuffix("%")
        guard let number = Double(percentSign ? String(text.dropLast()) : text), number >= 0, number.isFinite
        else { return nil }
        let fraction = percentSign || number > 1 ? number / 100 : number
        return fraction <= 1 ? fraction : nil
    }
}

struct Rate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set the playback rate (0.5–2).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The new rate.") var value: Double?

    func run() throws {
        let client = try options.connect()
        if let value { try client.setRate(value) }
        Terminal.line("rate \(try client.rate())")
    }
}

struct Crossfade: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set the crossfade: seconds (0–12) the end of a track and the start of the next overlap; 0 is "
            + "none. Two tracks of one album in a row stay gapless.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The new crossfade, in seconds.") var seconds: Double?

    func run() throws {
        let client = try options.connect()
        if let seconds {
            guard seconds.isFinite, (0...12).contains(seconds) else { throw ValidationError("crossfade must be 0–12 seconds, not \(seconds)") }
            try client.setCrossfade(seconds)
        }
        let now = try client.crossfade()
        let text = now == now.rounded() ? String(Int(now)) : String(now)
        Terminal.line(now == 0 ? "crossfade off" : "crossfade \(text) s")
    }
}

struct Loop: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set looping: none, track or playlist.")

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case none, track, playlist
        var loopStatus: ControlAPI.LoopStatus {
            switch self {
            case .none: return .none
            case .track: return .track
            case .playlist: return .playlist
            }
        }
    }

    @OptionGroup var options: ClientOptions
    @Argument(help: "none, track or playlist.") var mode: Mode?

    func run() throws {
        let client = try options.connect()
        if let mode { try client.setLoopStatus(mode.loopStatus) }
        Terminal.line("loop \(try client.loopStatus().lowercased())")
    }
}

struct Shuffle: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set shuffle: on or off.")

    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    @OptionGroup var options: ClientOptions
    @Argument(help: "on or off.") var state: Switch?

    func run() throws {
        let client = try options.connect()
        if let state { try client.setShuffle(state == .on) }
        Terminal.line("shuffle \(try client.shuffle() ? "on" : "off")")
    }
}
