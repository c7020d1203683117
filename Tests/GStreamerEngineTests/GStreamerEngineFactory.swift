import GStreamerEngine
import PlayerCore

enum GStreamerEngineFactory {
    static func make(sink: String) throws -> GStreamerEngine {
        try GStreamerEngine(configuration: .init(sink: sink, applicationName: "Quaver tests"))
    }
}
