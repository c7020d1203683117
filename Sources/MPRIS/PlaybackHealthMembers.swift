import ControlAPI
import DBus
import PlayerCore
import PublicText

/// Playback health on `org.quaver.Quaver1` (docs/dbus-api.md, "Playback health"): `BufferedRanges` (`a(dd)`,
/// the seconds of the current remote track downloaded), `WaitingReason` (`s`, why nothing is heard) and
/// `LastErrorKind` (`s`, the kind of `LastError`), signalled when they change (BufferedRanges a few times a
/// second at most: the engine reports downloads no faster); `GetTrackStatistics` (`a{sv}`, what `quaver stats`
/// shows); and each queue entry's status and error in GetQueue's metadata (`queueEntries`). All read-only.
public final class PlaybackHealthMembers: InterfacePart, PlayerObserver {
    private let player: Player
    public var valuesChanged: (() -> Void)?

    /// Observes `player` (held weakly by it: keep this object alive as long as the interface).
    public init(player: Player) {
        self.player = player
        player.addObserver(self)
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .state, .status, .buffering, .bufferedRanges, .currentTrack, .trackFailed:
            valuesChanged?()
        default:
            break
        }
    }

    public var properties: [InterfaceDescription.Property] {
        let types: [(String, Signature)] = [(QuaverProperty.bufferedRanges, "a(dd)"), (QuaverProperty.waitingReason, "s"),
                                            (QuaverProperty.lastErrorKind, "s")]
        return types.map { name, type in
            InterfaceDescription.Property(name: name, type: type) { [weak self] in
                guard let value = self?.signalledValues[name] else { throw DBusError.failed("the player is shutting down") }
                return value
            }
        }
    }

    public var signalledValues: [String: DBusValue] {
        [QuaverProperty.bufferedRanges: .array(element: "(dd)", player.bufferedRanges.map(Self.value)),
         QuaverProperty.waitingReason: .string(HealthSpelling.waitingReason(player.waitingReason)),
         QuaverProperty.lastErrorKind: .string(player.lastError.map { HealthSpelling.errorKind($0.error.kind) } ?? "")]
    }

    public var methods: [InterfaceDescription.Method] {
        [InterfaceDescription.Method(name: "GetTrackStatistics", outputs: [.init("statistics", "a{sv}")]) { [weak self] _ in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return [.variantDictionary(player.statistics().map(Self.entries) ?? [:])]
        }]
    }

    /// `quaver:status`, and for a failed entry `quaver:error` and `quaver:errorKind`, for GetQueue's metadata.
    /// The error quotes the URI: credentials are masked, as in LastError.
    static func queueEntries(of track: Track, in player: Player) -> [String: DBusValue] {
        let status = player.status(of: track.id)
        var entries = [MetadataKey.status: DBusValue.string(HealthSpelling.trackStatus(status))]
        if case .failed(let error) = status {
            entries[MetadataKey.error] = .string(PublicText.from(error.message, quoting: [track.uri]))
            entries[MetadataKey.errorKind] = .string(HealthSpelling.errorKind(error.kind))
        }
        return entries
    }

    private static func value(_ span: TimeSpan) -> DBusValue {
        .structure([.double(span.start / .seconds(1)), .double(span.end / .seconds(1))])
    }

    private static func entries(_ statistics: DeliveryStatistics) -> [String: DBusValue] {
        var entries: [String: DBusValue] = [
            StatisticsKey.bytesFetched: .uint64(statistics.bytesFetched),
            StatisticsKey.retries: .uint32(UInt32(clamping: statistics.retries)),
            StatisticsKey.stalls: .uint32(UInt32(clamping: statistics.stalls)),
        ]
        if let bytes = statistics.bytesPresent { entries[StatisticsKey.bytesPresent] = .uint64(bytes) }
        if let bytes = statistics.bytesTotal { entries[StatisticsKey.bytesTotal] = .uint64(bytes) }
        if let bitrate = statistics.bitrate { entries[StatisticsKey.bitrate] = .uint32(UInt32(clamping: bitrate)) }
        if let decoder = statistics.decoder { entries[StatisticsKey.decoder] = .string(PublicText.from(decoder)) }
        return entries
    }
}
