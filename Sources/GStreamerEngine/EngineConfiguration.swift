extension GStreamerEngine {
    public struct Configuration: Sendable {
        /// A sink element or pipeline fragment (`gst-launch` syntax). `pulsesink` fails loudly when no
        /// sound server runs, unlike `autoaudiosink`, which silently plays into a fake sink.
        public var sink: String
        /// Shown by the sound server's mixer (pulsesink `stream-properties`).
        public var applicationName: String
        public var iconName: String
        /// Cache, retries and timeouts for http(s) items.
        public var network: NetworkOptions
        public var replayGain: ReplayGain

        public init(sink: String = "pulsesink", applicationName: String = "Quaver", iconName: String = "quaver",
                    network: NetworkOptions = NetworkOptions(), replayGain: ReplayGain = ReplayGain()) {
            self.sink = sink
            self.applicationName = applicationName
            self.iconName = iconName
            self.network = network
            self.replayGain = replayGain
        }
    }
}
