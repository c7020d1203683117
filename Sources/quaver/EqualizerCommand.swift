import ArgumentParser
import ControlAPI
import QuaverClient

struct Equalizer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eq",
        abstract: "Show the equaliser, choose a preset, set bands (1k=-6 16k=+3 preamp=-2), or turn it off.",
        discussion: """
            Bands: \(EqualizerSetting.bandNames.joined(separator: " ")) (Hz), and preamp; gains from \
            \(EqualizerSetting.limitsText). Bands not named keep their gains (from flat when the equaliser is off). \
            Your own presets are TOML files in ~/.config/quaver/eq/NAME.toml: preamp = -3 and bands = [ten gains].
            """)

    @OptionGroup var options: ClientOptions
    @Argument(help: "A preset's name, off, or BAND=dB pairs.",
              completion: .list([EqualizerPresets.off] + EqualizerPresets.shipped.map(\.name)))
    var settings: [String] = []

    func run() throws {
        let client = try options.connect()
        if settings.contains(where: { $0.contains("=") }) {
            try client.setEqualizer(try Self.changing(try client.equalizer(), by: settings).values)
        } else if let preset = settings.first {
            guard settings.count == 1 else { throw ValidationError("eq takes one preset name, or BAND=dB pairs") }
            try client.setEqualizerPreset(preset)
        }
        try Self.show(client)
    }

    /// `current` (flat when off) with each `BAND=dB` of `pairs` applied, or what is wrong with one of them.
    static func changing(_ current: [Double], by pairs: [String]) throws -> EqualizerSetting {
        var setting = (try? EqualizerSetting(values: current)) ?? .flat
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let gain = Double(parts[1].hasSuffix("dB") ? String(parts[1].dropLast(2)) : parts[1]),
                  let changed = setting.setting(parts[0], to: gain) else {
                throw ValidationError("\(pair): give BAND=dB with BAND one of \(EqualizerSetting.bandNames.joined(separator: ", ")) or preamp")
            }
            setting = changed
        }
        return setting
    }

    /// `equaliser: bass`, the gains per band, and the presets there are.
    static func show(_ client: QuaverClient) throws {
        let preset = try client.equalizerPreset(), values = try client.equalizer()
        Terminal.line("equaliser: \(preset)")
        if values.count == EqualizerSetting.valueCount {
            let names = [EqualizerSetting.preAmpName] + EqualizerSetting.bandNames
            Terminal.line(zip(names, values).map { "\($0)=\(Self.decibels($1))" }.joined(separator: " "))
        }
        Terminal.line("presets: \(try client.equalizerPresets().joined(separator: ", "))")
    }

    /// `+3`, `-6`, `0`, `-1.5`.
    static func decibels(_ gain: Double) -> String {
        let text = gain == gain.rounded() ? String(Int(gain)) : String(gain)
        return gain > 0 ? "+" + text : text
    }
}
