/// What the sound server tells about outputs, reduced to what the pause decision needs. The monitor
/// reports only *our* streams (sink inputs of this process with media.role=music).
public enum SoundServerEvent: Equatable, Sendable {
    /// A sink appeared or changed (its active port may have changed).
    case sink(SinkInfo)
    case sinkRemoved(index: UInt32)
    /// Our stream appeared or changed (it may have moved to another sink).
    case stream(index: UInt32, sink: UInt32)
    case streamRemoved(index: UInt32)
    /// The default sink changed (a newly plugged device, or the user's choice).
    case defaultSink(name: String)
}

public struct SinkInfo: Equatable, Sendable {
    public var index: UInt32
    public var name: String
    public var activePort: PortInfo?
    public init(index: UInt32, name: String, activePort: PortInfo?) {
        self.index = index
        self.name = name
        self.activePort = activePort
    }
}

public struct PortInfo: Equatable, Sendable {
    /// libpulse's `pa_device_port_type_t` values we tell apart (pulse/def.h).
    public enum Kind: UInt32, Sendable {
        case unknown = 0, aux = 1, speaker = 2, headphones = 3, line = 4, mic = 5, headset = 6, handset = 7,
             earpiece = 8, spdif = 9, hdmi = 10, tv = 11, radio = 12, video = 13, usb = 14, bluetooth = 15,
             portable = 16, handsfree = 17, car = 18, hifi = 19, phone = 20, network = 21, analog = 22
    }
    public var name: String
    public var kind: Kind
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// A port only the listener hears. Some drivers report `unknown`: their port names still say it
    /// (ALSA's "analog-output-headphones").
    var isPersonal: Bool {
        switch kind {
        case .headphones, .headset, .handset, .earpiece: return true
        case .unknown: return name.lowercased().contains("headphone") || name.lowercased().contains("headset")
        default: return false
        }
    }
}

/// Decides, from the sound server's events in order, when the output we play on went away:
/// the sink our stream plays on is removed, or its active port changes from headphones (or a headset)
/// to anything else (the jack was unplugged: music would go to the speakers).
///
/// When a sink is removed, the sound server moves our stream to another sink *first* and then reports
/// the removal, so the sink we were just moved off counts as ours too. A new sink that becomes the
/// default does not pause: the stream moves (or not) and nobody loses their sound.
public struct OutputRoutePolicy: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        case pause(AutomaticReason)
    }

    private var sinks: [UInt32: SinkInfo] = [:]
    /// Our streams and the sink each plays on.
    private var streams: [UInt32: UInt32] = [:]
    /// The sink our stream was last moved off: its removal explains the move. Only the last one, so an
    /// old move (the user's choice, a newly plugged default) does not make a much later removal ours.
    private var movedOff: UInt32?

    public init() {}

    public mutating func handle(_ event: SoundServerEvent) -> Decision? {
        switch event {
        case .sink(let info): return sinkChanged(info)
        case .sinkRemoved(let index): return sinkRemoved(index)
        case .stream(let index, let sink):
            if let previous = streams[index], previous != sink { movedOff = previous }
            streams[index] = sink
        case .streamRemoved(let index): streams[index] = nil
        case .defaultSink: break
        }
        return nil
    }

    private mutating func sinkChanged(_ info: SinkInfo) -> Decision? {
        let before = sinks[info.index]
        sinks[info.index] = info
        guard streams.values.contains(info.index), let old = before?.activePort, let new = info.activePort,
              old.name != new.name, old.isPersonal, !new.isPersonal else { return nil }
        return .pause(.portChanged(sink: info.name, from: old.name, to: new.name))
    }

    private mutating func sinkRemoved(_ index: UInt32) -> Decision? {
        let name = sinks.removeValue(forKey: index)?.name ?? "#\(index)"
        let ours = streams.values.contains(index) || movedOff == index
        if movedOff == index { movedOff = nil }
        return ours ? .pause(.outputRemoved(sink: name)) : nil
    }
}
