import ControlAPI
import DBus
import PublicText

/// The equaliser on `org.quaver.Quaver1`:
/// - `Equalizer`, `ad`, read/write: the pre-amp then the ten bands (31 Hz … 16 kHz), dB; empty when off.
///   Setting eleven values turns it on with them (the preset becomes `custom`); setting none turns it off.
/// - `EqualizerPreset`, `s`, read/write: a preset's name, `off` or `custom`; setting a name applies that preset.
/// - `EqualizerPresets`, `as`: the names `EqualizerPreset` takes, shipped presets first, then the user's files.
///
/// A value that cannot be used (a count other than 0 or 11, NaN, a gain out of range, an unknown preset) is
/// InvalidArgs and changes nothing. Every change is signalled with the interface's others, and told to
/// `changed` (the state file) and `apply` (the engine).
public final class EqualizerControl: InterfacePart {
    public private(set) var state = EqualizerState.off
    public var valuesChanged: (() -> Void)?
    /// Told every change (not the restore): the session keeps it.
    public var changed: ((EqualizerState) -> Void)?
    private let apply: (EqualizerSetting) -> Void
    private let userPresets: () -> [(name: String, setting: EqualizerSetting)]

    /// `apply` gives the engine its gains (flat when off); `userPresets` gives the user's presets, asked each time
    /// presets are listed or one is chosen, so that a new file is found without a restart.
    public init(apply: @escaping (EqualizerSetting) -> Void,
                userPresets: @escaping () -> [(name: String, setting: EqualizerSetting)]) {
        self.apply = apply
        self.userPresets = userPresets
    }

    /// The state read back from the state file; one that is no longer valid (a preset file gone is not:
    /// its gains were saved) leaves the equaliser off.
    public func restore(_ restored: EqualizerState) {
        if case .on(let setting, _) = restored, (try? EqualizerSetting(values: setting.values)) == nil { return }
        set(restored, telling: false)
    }

    public var properties: [InterfaceDescription.Property] {
        [InterfaceDescription.Property(name: QuaverProperty.equalizer, type: "ad", access: .readWrite,
                                       get: { [weak self] in try self.value(\.equalizerValue) },
                                       set: { [weak self] in try self?.setGains($0) }),
         InterfaceDescription.Property(name: QuaverProperty.equalizerPreset, type: "s", access: .readWrite,
                                       get: { [weak self] in try self.value(\.presetValue) },
                                       set: { [weak self] in try self?.choosePreset($0.stringValue ?? "") }),
         InterfaceDescription.Property(name: QuaverProperty.equalizerPresets, type: "as") { [weak self] in
             try self.value { .stringArray($0.presets.map(\.name)) }
         }]
    }

    public var signalledValues: [String: DBusValue] {
        [QuaverProperty.equalizer: equalizerValue, QuaverProperty.equalizerPreset: presetValue]
    }

    public var methods: [InterfaceDescription.Method] { [] }

    private var equalizerValue: DBusValue {
        guard case .on(let setting, _) = state else { return .array(element: "d", []) }
        return .array(element: "d", setting.values.map(DBusValue.double))
    }

    private var presetValue: DBusValue {
        guard case .on(_, let preset) = state else { return .string(EqualizerPresets.off) }
        return .string(preset)
    }

    /// Shipped presets, then the user's (whose names never repeat a shipped one: EqualizerPresetFiles).
    private var presets: [(name: String, setting: EqualizerSetting)] { EqualizerPresets.shipped + userPresets() }

    private func setGains(_ value: DBusValue) throws {
        let values = (value.arrayValue ?? []).compactMap(\.doubleValue)
        guard !values.isEmpty else { return set(.off) }
        do {
            set(.on(try EqualizerSetting(values: values), preset: EqualizerPresets.custom))
        } catch {
            throw DBusError.invalidArgs("Equalizer: \(error)")
        }
    }

    private func choosePreset(_ name: String) throws {
        if name == EqualizerPresets.off { return set(.off) }
        let known = presets
        guard let preset = known.first(where: { $0.name == name }) else {
            throw DBusError.invalidArgs("no equaliser preset \"\(PublicText.from(name, limit: 60))\"; "
                                        + "known: off, \(known.map(\.name).joined(separator: ", "))")
        }
        set(.on(preset.setting, preset: preset.name))
    }

    private func set(_ new: EqualizerState, telling: Bool = true) {
        guard new != state else { return }
        state = new
        if case .on(let setting, _) = new { apply(setting) } else { apply(.flat) }
        if telling { changed?(new) }
        valuesChanged?()
    }
}

extension Optional where Wrapped == EqualizerControl {
    /// A value of the control, or the error every property of a stopping daemon answers.
    fileprivate func value(_ read: (EqualizerControl) -> DBusValue) throws -> DBusValue {
        guard let control = self else { throw DBusError.failed("the player is shutting down") }
        return read(control)
    }
}
