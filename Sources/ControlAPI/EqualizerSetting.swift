/// The equaliser as the control API speaks of it: a pre-amp and ten bands an octave apart (31 Hz to 16 kHz),
/// each a gain in dB. On D-Bus (`Equalizer`, `ad`) it is the pre-amp followed by the ten bands; an empty array
/// means off. The daemon, the CLI and preset files all check values here, so the limits are said once.
public struct EqualizerSetting: Equatable, Sendable {
    /// The bands' centre frequencies, Hz: the octave bands of ISO 266, as most graphic equalisers have them.
    public static let bandFrequencies: [Double] = [31.25, 62.5, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// How users name the bands (`quaver eq 1k=-6`), in the order of `bandFrequencies`.
    public static let bandNames = ["31", "62", "125", "250", "500", "1k", "2k", "4k", "8k", "16k"]
    /// The name of the pre-amp among the bands' names.
    public static let preAmpName = "preamp"
    /// Every gain, the pre-amp's too: GStreamer's equaliser (`equalizer-nbands`) takes −24 dB to +12 dB per band.
    public static let gainLimits: ClosedRange<Double> = -24...12
    /// The number of values on D-Bus: the pre-amp, then the bands.
    public static let valueCount = 1 + bandFrequencies.count

    public var preAmp: Double
    /// One gain per band, in the order of `bandFrequencies`.
    public var gains: [Double]

    /// No value checked: use `init(values:)` for what comes from outside.
    init(preAmp: Double, _ gains: [Double]) {
        self.preAmp = preAmp
        self.gains = gains
    }

    /// Every gain 0 dB: passes the sound through untouched.
    public static let flat = EqualizerSetting(preAmp: 0, Array(repeating: 0, count: bandFrequencies.count))

    /// The pre-amp then the bands, as `Equalizer` carries them.
    public var values: [Double] { [preAmp] + gains }

    public var isFlat: Bool { values.allSatisfy { $0 == 0 } }

    /// The setting `values` names (the pre-amp, then ten bands), or what is wrong with them.
    public init(values: [Double]) throws(EqualizerValueError) {
        guard values.count == Self.valueCount else {
            throw EqualizerValueError("\(Self.valueCount) gains are needed (the pre-amp, then 10 bands), not \(values.count)")
        }
        for (index, value) in values.enumerated() where !Self.gainLimits.contains(value) {  // NaN is in no range
            throw EqualizerValueError("\(Self.nameOfValue(at: index)) must be from \(Self.limitsText), not \(value)")
        }
        self.init(preAmp: values[0], Array(values.dropFirst()))
    }

    /// "the pre-amp", or "the 1k band".
    static func nameOfValue(at index: Int) -> String {
        index == 0 ? "the pre-amp" : "the \(bandNames[index - 1]) band"
    }

    public static var limitsText: String { "\(Int(gainLimits.lowerBound)) to +\(Int(gainLimits.upperBound)) dB" }

    /// This setting with the gain named `name` (a band's name or `preamp`) set to `gain`; nil for an unknown name.
    public func setting(_ name: String, to gain: Double) -> EqualizerSetting? {
        var changed = self
        if name == Self.preAmpName {
            changed.preAmp = gain
        } else if let band = Self.bandNames.firstIndex(of: name) {
            changed.gains[band] = gain
        } else {
            return nil
        }
        return changed
    }
}

/// Why equaliser values were refused, worded for the user.
public struct EqualizerValueError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The presets shipped with Quaver, and the spellings `EqualizerPreset` takes beside preset names.
public enum EqualizerPresets {
    /// `EqualizerPreset` when the equaliser is off (setting it turns the equaliser off).
    public static let off = "off"
    /// `EqualizerPreset` when the gains were set one by one (`Equalizer`), not from a preset.
    public static let custom = "custom"
    /// The longest preset name; a user's preset file is named by it.
    public static let longestName = 40

    /// Gains in dB for 31, 62, 125, 250, 500 Hz, 1, 2, 4, 8 and 16 kHz; each preset that boosts lowers
    /// the pre-amp by about its largest boost, so that a loud track does not clip.
    public static let shipped: [(name: String, setting: EqualizerSetting)] = [
        ("flat", .flat),
        ("bass", EqualizerSetting(preAmp: -6, [6, 6, 5, 3, 1, 0, 0, 0, 0, 0])),
        ("treble", EqualizerSetting(preAmp: -6, [0, 0, 0, 0, 0, 1, 2, 4, 5, 6])),
        ("voice", EqualizerSetting(preAmp: -4, [-6, -4, -2, 0, 2, 4, 4, 3, 1, 0])),
        ("loudness", EqualizerSetting(preAmp: -5, [5, 4, 2, 0, -1, 0, 0, 1, 3, 4])),
        ("rock", EqualizerSetting(preAmp: -4, [4, 3, 2, 0, -1, -1, 1, 2, 3, 4])),
        ("classical", EqualizerSetting(preAmp: 0, [0, 0, 0, 0, 0, 0, -1, -2, -3, -4])),
    ]

    /// Whether `name` may name a preset: 1 to `longestName` characters of a–z, 0–9 and `-`, and not a word
    /// `EqualizerPreset` uses for something else.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= longestName && name != off && name != custom
            && name.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
    }
}

/// What the equaliser does: off, or a setting and the preset it came from (`EqualizerPresets.custom` for none).
public enum EqualizerState: Equatable, Sendable {
    case off
    case on(EqualizerSetting, preset: String)
}
