/// What the sound server reports, copied out of libpulse's structures (which live only during a callback).

/// A sink (an output device), from `pa_sink_info`.
public struct Sink: Equatable, Sendable {
    public var index: UInt32
    public var name: String
    /// What the server shows users (`pa_sink_info.description`), e.g. "Built-in Audio Analog Stereo".
    public var description: String
    public var activePort: Port?

    public init(index: UInt32, name: String, description: String = "", activePort: Port?) {
        self.index = index
        self.name = name
        self.description = description
        self.activePort = activePort
    }

    /// False only when the active port says nothing is plugged in (`PA_PORT_AVAILABLE_NO`); sinks
    /// without ports (Bluetooth, USB, null sinks) are available while they exist.
    public var isAvailable: Bool { activePort?.availability != .no }
}

/// A sink's port (headphone jack, speakers), from `pa_sink_port_info`.
public struct Port: Equatable, Sendable {
    public var name: String
    /// libpulse's `pa_device_port_type_t` value (pulse/def.h); 0 is unknown.
    public var type: UInt32
    public var availability: Availability

    /// `pa_port_available_t` (pulse/def.h): whether the jack is plugged in, where the port can tell.
    public enum Availability: UInt32, Sendable { case unknown = 0, no = 1, yes = 2 }

    public init(name: String, type: UInt32, availability: Availability = .unknown) {
        self.name = name
        self.type = type
        self.availability = availability
    }
}

/// A playback stream (`pa_sink_input_info`) or a recording stream (`pa_source_output_info`).
public struct SoundStream: Equatable, Sendable {
    public var index: UInt32
    /// The sink it plays on, or the source it records from.
    public var device: UInt32
    /// Its string properties (`media.role`, `application.process.id`…); binary ones are left out.
    public var properties: [String: String]
    /// Whether the stream is paused at the server: a corked stream makes no sound.
    public var corked: Bool

    public init(index: UInt32, device: UInt32, properties: [String: String], corked: Bool) {
        self.index = index
        self.device = device
        self.properties = properties
        self.corked = corked
    }

    public var role: String? { properties["media.role"] }
}

/// What a `SoundServerConnection` reports, in the order the server told it.
public enum SoundServerChange: Equatable, Sendable {
    /// Connected (again): the current sinks, streams and default sink follow as ordinary changes.
    case connected
    /// Everything there when the connection was made has been reported (after `.connected` and the lists).
    case listed
    /// The connection went away (the server stopped or crashed). Reconnection is under way.
    case disconnected
    case sink(Sink)
    case sinkRemoved(index: UInt32)
    case playbackStream(SoundStream)
    case playbackStreamRemoved(index: UInt32)
    case recordingStream(SoundStream)
    case recordingStreamRemoved(index: UInt32)
    case defaultSink(name: String)
}
