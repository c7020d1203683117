extension ControlAPI {
    /// MPRIS `LoopStatus`: exactly these three spellings, case and all (docs/mpris.md, "Properties").
    public enum LoopStatus: String, CaseIterable, Sendable {
        case none = "None"
        case track = "Track"
        case playlist = "Playlist"
    }
}
