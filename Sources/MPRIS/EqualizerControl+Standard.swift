import Configuration
import ControlAPI
import Logging

extension EqualizerControl {
    /// The daemon's equaliser when the engine has one (`available`), its gains given to `apply`; the user's presets
    /// are read from `$XDG_CONFIG_HOME/quaver/eq` when they are listed or chosen and the folder changed since, and
    /// a file that cannot be used is logged once. Nil, and a line saying why, without GStreamer's equalizer plugin.
    public static func standard(available: Bool, log: Logger, apply: @escaping (EqualizerSetting) -> Void) -> EqualizerControl? {
        guard available else {
            log.warning("no equaliser: GStreamer's equalizer plugin (gst-plugins-good) is not installed", source: log.label)
            return nil
        }
        let folder = (try? EqualizerPresetFiles.standardFolder()).map(EqualizerPresetFolder.init)
        return EqualizerControl(apply: apply) {
            folder?.presets { log.warning("equaliser preset left out: \($0)", source: log.label) } ?? []
        }
    }
}
