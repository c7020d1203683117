import PulseAudio

/// The sound server's sinks as the `Outputs` property lists them, the default sink, and the sink each of
/// our streams plays on, kept from the server's changes in order.
struct OutputList: Equatable {
    /// One sink as clients see it.
    struct Entry: Equatable {
        var name: String
        var description: String
        /// Our music plays on it now.
        var isOurs: Bool
        var isAvailable: Bool
    }

    private var sinks: [UInt32: Sink] = [:]
    /// Our streams (`OutputDeviceMonitor` tells which) and the sink each plays on.
    private(set) var ourStreams: [UInt32: UInt32] = [:]
    private(set) var defaultSink: String?

    /// Takes one change; `ours` is what the monitor made of it (our streams only). Returns whether the
    /// list as clients see it may have changed.
    mutating func handle(_ change: SoundServerChange, ours: SoundServerEvent?) -> Bool {
        switch (change, ours) {
        case (.sink(let sink), _): sinks[sink.index] = sink
        case (.sinkRemoved(let index), _): sinks[index] = nil
        case (.defaultSink(let name), _): defaultSink = name
        case (.disconnected, _): self = OutputList()
        case (_, .stream(let index, let sink)?): ourStreams[index] = sink
        case (_, .streamRemoved(let index)?): ourStreams[index] = nil
        default: return false
        }
        return true
    }

    var entries: [Entry] {
        let playedOn = Set(ourStreams.values)
        return sinks.keys.sorted().compactMap { sinks[$0] }.map {
            Entry(name: $0.name, description: $0.description, isOurs: playedOn.contains($0.index), isAvailable: $0.isAvailable)
        }
    }

    func sink(named name: String) -> Sink? { sinks.values.first { $0.name == name } }

    /// Our streams that do not play on the sink named `name` (all of them while no such sink exists).
    func streamsAway(from name: String) -> [UInt32] {
        let target = sink(named: name)?.index
        return ourStreams.filter { $0.value != target }.map(\.key).sorted()
    }
}
