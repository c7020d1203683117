/// The output for a Snapcast server: the sound converted and resampled to the stream's sample format and
/// written, as raw PCM, to snapserver's `tcp` source in server mode (`tcpclientsink` connects to it).
///
/// - The sink keeps GStreamer's clock (`sync=true`): samples leave at the pace they are heard, so the
///   position quaverd reports, a pause and a seek reach snapserver at once; paused, nothing is sent, and
///   snapserver's clients play silence until the stream comes back.
/// - Each buffer leaves `leadNanoseconds` early (`ts-offset`), so snapserver always finds the next samples waiting in
///   the socket: snapserver reads at its own pace and, when a read comes up short, jumps its stream's
///   timestamps ahead ("onResync" in its log), which the rooms hear as a gap. Without a lead, any delay
///   upstream (a decoder, a thread of quaverd late on a busy machine) would reach snapserver as a short read.
/// - The converter sits after playbin's gapless switch, so a track at 44.1 kHz followed by one at 48 kHz
///   still joins without a gap: only the caps before the converter change.
/// - tcpclientsink connects going to READY and fails there when nothing listens; a write error later is a
///   lost output, recovered like a lost sound server (Recovery.swift).
public struct SnapcastOutput: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var rate: Int
    /// 16, 24 (in 4 bytes, as snapserver reads it) or 32.
    public var bits: Int
    public var channels: Int
    /// How far ahead of the clock the samples are written: 100 ms.
    static let leadNanoseconds = 100_000_000

    public init(host: String, port: Int, rate: Int, bits: Int, channels: Int) {
        self.host = host
        self.port = port
        self.rate = rate
        self.bits = bits
        self.channels = channels
    }

    /// snapserver's little-endian signed samples, 24-bit ones in 32-bit words.
    var sampleFormat: String {
        switch bits {
        case 24: return "S24_32LE"
        case 32: return "S32LE"
        default: return "S16LE"
        }
    }

    /// The sink as a `gst-launch` bin description, for `GStreamerEngine.Configuration.sink`. The host is
    /// quoted; the settings admit only name and address characters in it.
    public var sinkDescription: String {
        "audioconvert ! audioresample ! "
            + "audio/x-raw,format=\(sampleFormat),layout=interleaved,rate=\(rate),channels=\(channels) ! "
            + "tcpclientsink host=\"\(host.filter { $0 != "\"" })\" port=\(port) sync=true "
            + "ts-offset=-\(Self.leadNanoseconds)"
    }
}
