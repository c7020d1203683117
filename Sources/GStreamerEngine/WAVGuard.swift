import GStreamer
import PlayerCore
import RIFFLayout

/// The WAV check (RIFFLayout) where the engine's files reach GStreamer: a WAV that would make wavparse
/// abort the daemon fails as its own track instead (docs/platform.md, "wavparse aborts").
enum WAVGuard {
    /// Why the local file `uri` names must not reach wavparse; nil for anything else (other URIs, files
    /// that cannot be opened: GStreamer reports those itself).
    static func refusal(fileURI uri: String) -> EngineError? {
        guard uri.hasPrefix("file:"), let path = localPath(fileURI: uri) else { return nil }
        return WAVChunkCheck.hazard(inFileAt: path).map(error)
    }

    static func error(_ hazard: WAVHazard) -> EngineError { EngineError(.undecodable, hazard.description) }
}
