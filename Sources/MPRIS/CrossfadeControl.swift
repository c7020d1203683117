import ControlAPI
import DBus
import PlayerCore
import Session

/// The crossfade on `org.quaver.Quaver1`: the `Crossfade` property (`d`, read and write), the seconds a joint between
/// tracks not of one album overlaps, 0…12 (0: none); signalled when set. Kept in the state file by whoever listens
/// to `changed`.
public final class CrossfadeControl: InterfacePart {
    public static let longest = 12.0
    private let player: Player
    public var valuesChanged: (() -> Void)?
    /// Told every value set over D-Bus.
    public var changed: ((Double) -> Void)?

    public init(player: Player) {
        self.player = player
    }

    /// The daemon's crossfade: `configured` (the configuration's seconds) until a value is set over D-Bus, which the
    /// state file keeps (`recorder`) and which wins over the configuration from then on.
    public static func standard(player: Player, configured: Double, keptBy recorder: SessionRecorder?) -> CrossfadeControl {
        player.crossfadeSeconds = configured
        let control = CrossfadeControl(player: player)
        recorder?.crossfadeRestored = { [weak control] in control?.restore($0) }
        control.changed = { [weak recorder] in recorder?.crossfadeSeconds = $0 }
        return control
    }

    public var properties: [InterfaceDescription.Property] {
        [InterfaceDescription.Property(name: QuaverProperty.crossfade, type: "d", access: .readWrite,
                                       get: { [weak self] in
                                           guard let self else { throw DBusError.failed("the player is shutting down") }
                                           return .double(self.player.crossfadeSeconds)
                                       },
                                       set: { [weak self] in try self?.set($0.doubleValue ?? .nan) })]
    }

    public var signalledValues: [String: DBusValue] { [QuaverProperty.crossfade: .double(player.crossfadeSeconds)] }

    public var methods: [InterfaceDescription.Method] { [] }

    /// The value read back from the state file: applied, not told to `changed`.
    public func restore(_ seconds: Double) {
        guard (0...Self.longest).contains(seconds) else { return }
        player.crossfadeSeconds = seconds
        valuesChanged?()
    }

    /// InvalidArgs for anything but a number of seconds from 0 to 12 (nothing changes then).
    private func set(_ seconds: Double) throws {
        guard (0...Self.longest).contains(seconds) else {
            throw DBusError.invalidArgs("Crossfade must be seconds from 0 to \(Int(Self.longest)), not \(seconds)")
        }
        player.crossfadeSeconds = seconds
        valuesChanged?()
        changed?(seconds)
    }
}
