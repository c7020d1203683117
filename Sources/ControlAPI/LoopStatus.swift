import PlayerCore

extension ControlAPI {
    /// MPRIS `LoopStatus`: exactly these three spellings, case and all (docs/mpris.md, "Properties"). The state
    /// file keeps the loop mode under the same names.
    public enum LoopStatus: String, CaseIterable, Sendable {
        case none = "None"
        case track = "Track"
        case playlist = "Playlist"

        /// The core's loop mode under its MPRIS name.
        public init(_ mode: LoopMode) {
            switch mode {
            case .none: self = .none
            case .track: self = .track
            case .playlist: self = .playlist
            }
        }

        public var loopMode: LoopMode {
            switch self {
            case .none: return .none
            case .track: return .track
            case .playlist: return .playlist
            }
        }
    }
}
