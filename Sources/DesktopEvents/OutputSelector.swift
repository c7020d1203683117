import EventLoop
import Logging
import PulseAudio

/// Sends our music to the sink the user chose (`SetOutput`), by moving our playback stream at the sound
/// server (`pa_context_move_sink_input_by_name`): the pipeline goes on as it was, with no gap, seek or
/// track change. With no choice the server's own routing (the default sink) applies.
///
/// The choice is by sink name, which Bluetooth headphones and USB devices keep across reconnections: when
/// our stream appears (a start, a restart of quaverd) or the chosen sink comes back, the stream is moved
/// there; a move the user makes meanwhile with another tool stands. While the chosen sink is missing the server plays us elsewhere (and `OutputRoutePolicy` paused).
///
/// The connection is made on demand (`DesktopEvents`): a client asking for the list or choosing asks for it
/// (`connectionNeeded`), and a choice made before the server has listed its sinks waits for that list.
public final class OutputSelector {
    public enum Refusal: Error, Equatable { case unknownSink(String) }

    /// How long a choice waits at most for a connection being made to list the sinks.
    static let listingWait = 3.0

    private(set) var list = OutputList()
    /// The chosen sink's name; nil: follow the default.
    public private(set) var chosen: String?
    /// Called when the choice changes (for the state file), and when the list changes (for `Outputs`).
    public var choiceChanged: ((String?) -> Void)?
    var listChanged: (() -> Void)?
    var connection: SoundServerConnection?
    /// Asks for the connection, which is made on demand.
    var connectionNeeded: (() -> Void)?
    /// Whether the list holds every sink the server had when the connection was made.
    private var listed = false
    /// What waits for that list (choices asked for before it), and the bound on that wait.
    private var waitingForList: [() -> Void] = []
    private var listingBound: LoopSource?
    private let log: Logger
    /// Streams with a move under way: not asked again until the server answered.
    private var moving: Set<UInt32> = []

    init(log: Logger) {
        self.log = log
    }

    /// The sinks now, in the server's order.
    var outputs: [OutputList.Entry] { list.entries }

    /// The choice kept from the last run, applied once the stream and the sink are there.
    public func restore(_ name: String?) {
        chosen = name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Chooses the sink named `name`, or the default sink for an empty name. An unknown name is refused
    /// and nothing changes.
    public func choose(_ name: String) throws(Refusal) {
        if name.isEmpty {
            chosen = nil
            if let fallback = list.defaultSink { move(to: fallback) }
        } else {
            guard list.sink(named: name) != nil else { throw .unknownSink(name) }
            chosen = name
            move(to: name)
        }
        log.notice("output: \(chosen ?? "the default sink")")
        choiceChanged?(chosen)
    }

    /// Runs `body` once the list is complete: at once when it is; otherwise (asking for the connection) when
    /// the server has listed its sinks, when no server answered, or after `listingWait`, whichever comes first.
    func whenListed(_ body: @escaping () -> Void) {
        if listed { return body() }
        waitingForList.append(body)
        connectionNeeded?()
        if listingBound == nil {
            listingBound = EventLoop.main.schedule(after: OutputSelector.listingWait) { [weak self] in self?.listingEnded() }
        }
    }

    private func listingEnded() {
        listingBound = nil
        let waiting = waitingForList
        waitingForList = []
        waiting.forEach { $0() }
    }

    /// Follows the server's change; moves our music to the chosen sink only when our stream is new or the
    /// chosen sink has just appeared, so a move the user makes elsewhere (pavucontrol) is not fought.
    func handle(_ change: SoundServerChange, ours: SoundServerEvent?) {
        if case .listed = change {
            listed = true
            return listingEnded()
        }
        let hadChosenSink = chosen.flatMap(list.sink(named:)) != nil
        let knownStreams = Set(list.ourStreams.keys)
        guard list.handle(change, ours: ours) else { return }
        if case .disconnected = change {
            moving = []
            listed = false
            listingEnded()  // no server answers (yet): what waits goes on with the list as it is, empty
        }
        listChanged?()
        guard let chosen, list.sink(named: chosen) != nil else { return }
        if !hadChosenSink || !Set(list.ourStreams.keys).subtracting(knownStreams).isEmpty { move(to: chosen) }
    }

    /// Moves our streams onto the sink `name` (one that just came back), then runs `done`, moved or not:
    /// whatever the server answered, the caller goes on.
    func bringBack(to name: String, then done: @escaping () -> Void) {
        let streams = list.streamsAway(from: name)
        guard let connection, !streams.isEmpty else { return done() }
        var waiting = streams.count
        for stream in streams {
            connection.moveStream(stream, toSink: name) { _ in
                waiting -= 1
                if waiting == 0 { done() }
            }
        }
    }

    private func move(to name: String) {
        for stream in list.streamsAway(from: name) where !moving.contains(stream) {
            moving.insert(stream)
            connection?.moveStream(stream, toSink: name) { [weak self] done in
                self?.moving.remove(stream)
                if done { self?.log.info("music moved to \(name)") } else { self?.log.warning("the sound server did not move the music to \(name)") }
            }
        }
    }
}
