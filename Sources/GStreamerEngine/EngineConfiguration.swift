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
        /// When set, the first load checks that `sink` opens its output (pulsesink reaching the sound server,
        /// tcpclientsink its Snapcast server) and plays into `SoundOutput.fallback` if it cannot, the log saying
        /// so and naming this as what to start. Nil: `sink` is used as it is.
        public var serverHint: String?
        /// The file where what the installed GStreamer offers is kept between runs (`InstalledFeatures`); nil:
        /// nothing is kept, and the registry answers.
        public var keptFeatures: String?

        public init(sink: String = "pulsesink", applicationName: String = "Quaver", iconName: String = "quaver",
                    network: NetworkOptions = NetworkOptions(), replayGain: ReplayGain = ReplayGain(),
                    serverHint: String? = nil, keptFeatures: String? = nil) {
            self.sink = sink
            self.serverHint = serverHint
            self.keptFeatures = keptFeatures
            self.applicationName = applicationName
            self.iconName = iconName
            self.network = network
            self.replayGain = replayGain
        }
    }
}
