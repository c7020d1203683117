import ArgumentParser
import ControlAPI
import DBus

struct Volume: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set the volume: 0–100 (percent) or a fraction 0–1 (`0.5`); `1` means full volume.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The new volume.") var value: String?

    func run() throws {
        let client = try options.connect()
        if let value {
            guard let volume = Self.parse(value) else { throw ValidationError("volume must be 0–100 or 0–1, not \(value)") }
            try client.set(ControlAPI.playerInterface, "Volume", .double(volume))
        }
        let volume = try client.get(ControlAPI.playerInterface, "Volume").doubleValue ?? 0
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
        if let value { try client.set(ControlAPI.playerInterface, "Rate", .double(value)) }
        Terminal.line("rate \(try client.get(ControlAPI.playerInterface, "Rate").doubleValue ?? 1)")
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
        if let mode { try client.set(ControlAPI.playerInterface, "LoopStatus", .string(mode.loopStatus.rawValue)) }
        Terminal.line("loop \((try client.get(ControlAPI.playerInterface, "LoopStatus").stringValue ?? "").lowercased())")
    }
}

struct Shuffle: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set shuffle: on or off.")

    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    @OptionGroup var options: ClientOptions
    @Argument(help: "on or off.") var state: Switch?

    func run() throws {
        let client = try options.connect()
        if let state { try client.set(ControlAPI.playerInterface, "Shuffle", .boolean(state == .on)) }
        Terminal.line("shuffle \(try client.get(ControlAPI.playerInterface, "Shuffle").boolValue == true ? "on" : "off")")
    }
}
