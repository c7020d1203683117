import ControlAPI
import DBus
import PlayerCore

/// `org.mpris.MediaPlayer2.Player`: transport, position, rate, volume, loop and shuffle (MPRIS 2.2).
extension MPRISService {
    func makePlayerInterface() -> InterfaceDescription {
        InterfaceDescription(name: Self.playerInterface, methods: [
            command("Next") { service, _ in service.player.next() },
            command("Previous") { service, _ in service.player.previousOrRestart() },
            command("Pause") { service, _ in service.player.pause() },
            command("PlayPause") { service, _ in service.player.togglePlayPause() },
            command("Stop") { service, _ in service.player.stop() },
            command("Play") { service, _ in service.player.play() },
            command("Seek", [Argument("Offset", "x")]) { service, arguments in
                service.player.seek(by: .microseconds(arguments[0].int64Value ?? 0))
            },
            command("SetPosition", [Argument("TrackId", "o"), Argument("Position", "x")]) { service, arguments in
                // A stale id is ignored, as the spec says; the core ignores positions outside the track.
                guard let id = service.queuedTrack(arguments[0]) else { return }
                service.player.setPosition(.microseconds(arguments[1].int64Value ?? -1), of: id)
            },
            command("OpenUri", [Argument("Uri", "s")]) { service, arguments in
                try service.open(arguments[0].stringValue ?? "")
            },
        ], properties: playerProperties, signals: [
            SignalDescription(name: "Seeked", arguments: [Argument("Position", "x")]),
        ])
    }

    private var playerProperties: [Property] {
        [
            property(PlayerProperty.playbackStatus) { $0.playbackStatus },
            property(PlayerProperty.loopStatus, { $0.loopStatus }, set: { try $0.setLoopStatus($1) }),
            property(PlayerProperty.rate, { $0.player.rate }, set: { try $0.setRate($1) }),
            property(PlayerProperty.shuffle, { $0.player.isShuffled }, set: { $0.player.setShuffle($1.boolValue ?? false) }),
            Property(name: PlayerProperty.metadata, type: "a{sv}") { [weak self] in
                guard let self else { throw DBusError.failed("the player is shutting down") }
                return try self.preparedMetadata(of: self.player.currentTrackID)
            },
            property(PlayerProperty.volume, { $0.player.volume }, set: { try $0.setVolume($1) }),
            property(PlayerProperty.position) { $0.player.position.microseconds },
            property(PlayerProperty.minimumRate) { _ in Player.rateRange.lowerBound },
            property(PlayerProperty.maximumRate) { _ in Player.rateRange.upperBound },
            property(PlayerProperty.canGoNext) { $0.player.canGoNext },
            property(PlayerProperty.canGoPrevious) { $0.canGoPrevious },
            property(PlayerProperty.canPlay) { $0.player.canPlay },
            property(PlayerProperty.canPause) { $0.player.canPause },
            property(PlayerProperty.canSeek) { $0.player.canSeek },
            property(PlayerProperty.canControl) { _ in true },
        ]
    }

    /// What PropertiesChanged reports for this interface: every property except Position (docs/mpris.md, "Position")
    /// and the constant ones.
    func signalledPlayerProperties() -> [String: DBusValue] {
        [
            PlayerProperty.playbackStatus: .string(playbackStatus),
            PlayerProperty.loopStatus: .string(loopStatus),
            PlayerProperty.rate: .double(player.rate),
            PlayerProperty.shuffle: .boolean(player.isShuffled),
            PlayerProperty.metadata: metadata(of: player.currentTrackID),
            PlayerProperty.volume: .double(player.volume),
            PlayerProperty.canGoNext: .boolean(player.canGoNext),
            PlayerProperty.canGoPrevious: .boolean(canGoPrevious),
            PlayerProperty.canPlay: .boolean(player.canPlay),
            PlayerProperty.canPause: .boolean(player.canPause),
            PlayerProperty.canSeek: .boolean(player.canSeek),
        ]
    }

    var playbackStatus: String {
        switch player.status {
        case .playing: return "Playing"
        case .paused: return "Paused"
        case .stopped: return "Stopped"
        }
    }

    var loopStatus: String { ControlAPI.LoopStatus(player.loopMode).rawValue }

    /// True whenever there is a current track: Previous then always does something — it goes back, or
    /// restarts the track when there is nothing before it. playerctl refuses `previous` while this is false.
    var canGoPrevious: Bool { player.currentTrackID != nil }


    private func setLoopStatus(_ value: DBusValue) throws {
        guard let status = value.stringValue.flatMap(ControlAPI.LoopStatus.init(rawValue:)) else {
            throw DBusError.invalidArgs("LoopStatus must be None, Track or Playlist")
        }
        player.setLoopMode(status.loopMode)
    }

    /// Rate 0 means Pause (docs/mpris.md, "Properties"); other values outside MinimumRate…MaximumRate, and NaN, are refused.
    private func setRate(_ value: DBusValue) throws {
        let rate = value.doubleValue ?? .nan
        if rate == 0 { return player.pause() }
        do { try player.setRate(rate) } catch { throw DBusError.invalidArgs("\(error)") }
    }

    /// Linear volume; the core clamps to 0…1 and refuses NaN.
    private func setVolume(_ value: DBusValue) throws {
        do { try player.setVolume(value.doubleValue ?? .nan) } catch { throw DBusError.invalidArgs("\(error)") }
    }

    /// OpenUri: queued right after the current track and played; a refused URI leaves the queue as it was.
    func open(_ text: String) throws {
        let uri = try OpenableURI.check(text, recognisesMedia: configuration.recognisesMedia)
        try checkRoom(for: 1)
        player.open(uri)
    }
}
