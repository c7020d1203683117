import Configuration
import ControlAPI
import Logging
import Session

extension EqualizerControl {
    /// The daemon's equaliser when the engine has one (`available`), its gains given to `apply`; the user's presets
    /// are read from `$XDG_CONFIG_HOME/quaver/eq` when they are listed or chosen and the folder changed since, and
    /// a file that cannot be used is logged once. Its state is kept in the state file (`recorder`) and restored from
    /// it. Nil, and a line saying why, without GStreamer's equalizer plugin.
    public static func standard(available: Bool, keptBy recorder: SessionRecorder?, log: Logger,
                                apply: @escaping (EqualizerSetting) -> Void) -> EqualizerControl? {
        guard available else {
            log.warning("no equaliser: GStreamer's equalizer plugin (gst-plugins-good) is not installed", source: log.label)
            return nil
        }
        let folder = (try? EqualizerPresetFiles.standardFolder()).map(EqualizerPresetFolder.init)
        let control = EqualizerControl(apply: apply) {
            folder?.presets { log.warning("equaliser preset left out: \($0)", source: log.label) } ?? []
        }
        recorder?.equalizerRestored = { [weak control] in control?.restore($0) }
        control.changed = { [weak recorder] in recorder?.equalizer = $0 }
        return control
    }
}
