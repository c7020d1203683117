import GStreamer
import Glibc

/// The equaliser: a pre-amp (`volume`) and ten octave bands (`equalizer-nbands`, 31 Hz to 16 kHz) inside the
/// audio filter, after ReplayGain and before the tempo filter:
///
///   playbin ──▶ audio-filter [ rgvolume ─▶ volume (pre-amp) ─▶ equalizer-nbands ─▶ scaletempo ] ──▶ sink
///
/// Both are always in the filter when the plugin is installed, so that a change while playing is a property
/// set on the running elements, never a relink (no gap, no seek). With every gain at 0 dB both switch to
/// GstBaseTransform's passthrough (`volume` at 1.0; `equalizer-nbands` when all its bands are at 0), and the
/// samples go through untouched: measured bit-exact on a 20 Hz–20 kHz sweep, as `equalizer-10bands` is too.
/// `nbands` is used because its centres can be the octave bands users know (1 kHz, not 10bands' 947 Hz).
/// The filter is renewed at every NULL (FilterSlot); each new one is given the gains last set.
///
/// Loop thread only: the gains are set from commands, and the filter is renewed by `stopPipeline`.
final class EqualizerStage {
    static let preAmpName = "equalizer-preamp"
    static let bandsName = "equalizer"
    /// The centres the control API names (ControlAPI's `EqualizerSetting.bandFrequencies`, a module the engine may
    /// not import): `setEqualizer` takes its gains in this order.
    static let bandFrequencies: [Double] = [31.25, 62.5, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]

    /// The elements as a `gst-launch` fragment for the filter bin, octave-wide bands at the centres above
    /// (the first a low shelf and the last a high shelf, as `equalizer-nbands` makes them); `nil` when
    /// GStreamer's equalizer plugin (gst-plugins-good) is missing.
    static let fragment: String? = {
        guard (try? Element.make("equalizer-nbands")) != nil, (try? Element.make("volume")) != nil else { return nil }
        let bands = bandFrequencies.enumerated().map { index, centre in
            "band\(index)::freq=\(centre) band\(index)::bandwidth=\(centre / 2.0.squareRoot())"
        }
        return "volume name=\(preAmpName) ! equalizer-nbands name=\(bandsName) num-bands=\(bandFrequencies.count) "
            + bands.joined(separator: " ")
    }()

    private var gains = EqualizerGains()
    private var preAmpElement: Element?
    private var bandsElement: Element?

    /// The filter's elements from now on (a renewed filter), given the gains last set.
    func use(_ filter: Element?) {
        preAmpElement = filter?.child(named: Self.preAmpName)
        bandsElement = filter?.child(named: Self.bandsName)
        apply()
    }

    /// New gains, heard from the next buffer on. Values beyond the elements' ranges are clamped (the
    /// control API refuses them before they get here).
    func set(_ gains: EqualizerGains) {
        self.gains = gains
        apply()
    }

    private func apply() {
        preAmpElement?.set("volume", Self.amplitude(dB: min(12, max(-24, gains.preAmp))))
        for (band, gain) in gains.bands.prefix(Self.bandFrequencies.count).enumerated() {
            bandsElement?.setChild(at: band, "gain", min(12, max(-24, gain)))
        }
    }

    /// `volume`'s factor for a gain in dB; exactly 1 at 0 dB, where `volume` passes samples through.
    static func amplitude(dB: Double) -> Double {
        dB == 0 ? 1 : pow(10, dB / 20)
    }
}

/// The equaliser's setting, dB: the pre-amp, then one gain per band (`EqualizerStage.bandFrequencies`).
struct EqualizerGains {
    var preAmp = 0.0
    var bands = Array(repeating: 0.0, count: EqualizerStage.bandFrequencies.count)
}

extension GStreamerEngine {
    /// The equaliser's pre-amp and ten band gains (31 Hz to 16 kHz), dB, heard from the next buffer on;
    /// all 0 passes the sound through untouched (bit-exact). Kept for the first pipeline when none is built yet.
    public func setEqualizer(preAmp: Double, gains: [Double]) {
        apply(.equalizer(EqualizerGains(preAmp: preAmp, bands: gains)))
    }
}
