import GStreamerEngine
import PlayerCore

enum GStreamerEngineFactory {
    static func make(sink: String) throws -> GStreamerEngine {
        GStreamerEngine(configuration: .init(sink: sink, applicationName: "Quaver tests"))
    }
}
