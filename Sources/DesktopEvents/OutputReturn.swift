import EventLoop
import PulseAudio

/// Plays again when the output whose removal paused us comes back: Bluetooth headphones that drop out
/// for a second, a USB DAC replugged. Only if that removal paused playback, the user did nothing since
/// (the Player forgets the interruption on any command), and a sink of the same name returns within the
/// window; the music is moved back onto it, since the server had moved it elsewhere, and plays there on a new
/// output stream.
/// A pause of the user's own is never undone.
final class OutputReturn {
    private let playback: AutomaticPlayback
    private let selector: OutputSelector
    private let window: Double
    /// The sink whose return resumes, until the window closes.
    private var awaited: String?
    private var windowEnd: LoopSource?

    /// `windowMinutes`: how long after the removal the return still counts.
    init(playback: AutomaticPlayback, selector: OutputSelector, windowMinutes: Double) {
        self.playback = playback
        self.selector = selector
        window = windowMinutes * 60
    }

    /// The output `sink` was removed while we played on it: pause so that its return may resume.
    func removed(_ reason: AutomaticReason, sink: String) {
        guard playback.interrupt(reason) else { return }
        awaited = sink
        windowEnd = EventLoop.main.schedule(after: window) { [weak self] in self?.windowClosed() }
    }

    func handle(_ change: SoundServerChange) {
        guard case .sink(let sink) = change, sink.name == awaited else { return }
        awaited = nil
        windowEnd = nil
        guard playback.player.isPausedByInterruption else { return }  // the user acted meanwhile
        // On a new stream: the old one's clock did not come through the moves (GStreamerEngine.restartOnNewOutput).
        selector.bringBack(to: sink.name) { [playback] in
            playback.resume(.outputReturned(sink: sink.name), onNewOutput: sink.name)
        }
    }

    private func windowClosed() {
        windowEnd = nil
        guard let sink = awaited else { return }
        awaited = nil
        playback.forgetInterruption(.outputStayedAway(sink: sink))
    }

    func stop() {
        awaited = nil
        windowEnd = nil
    }
}
